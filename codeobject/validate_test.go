package codeobject

import (
	"path/filepath"
	"testing"
)

// TestValidateLLVMObjectsClean: objects LLVM built have no errors.
func TestValidateLLVMObjectsClean(t *testing.T) {
	for _, path := range goldenObjects(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range f.Validate() {
				if fd.Severity == SeverityError {
					t.Errorf("%v", fd)
				} else {
					t.Logf("%v", fd)
				}
			}
		})
	}
}
