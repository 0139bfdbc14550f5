package codeobject

import (
	"bytes"
)

// MetadataNote returns the note that holds the code object metadata:
// "AMDGPU" NT_AMDGPU_METADATA (V3+) or "AMD" NT_AMD_HSA_METADATA (V2).
// It returns nil, nil when there is none.
func (f *File) MetadataNote() (*Note, error) {
	n, err := f.FindNote("AMDGPU", NT_AMDGPU_METADATA)
	if err != nil || n != nil {
		return n, err
	}
	return f.FindNote("AMD", NT_AMD_HSA_METADATA)
}

// MetadataDocument returns the metadata as a document tree: the decoded
// MessagePack map (V3+, shared with later calls: Clone it to edit), or the
// V2 YAML mapped onto nodes. Offsets in errors are file offsets.
func (f *File) MetadataDocument() (*Node, error) {
	n, err := f.MetadataNote()
	if err != nil || n == nil {
		return nil, err
	}
	if n.Name == "AMD" {
		return parseV2YAMLNode(v2Text(n.Desc), n.DescOff)
	}
	return f.msgpackDoc(n)
}

// msgpackDoc decodes the V3+ metadata note once per File.
func (f *File) msgpackDoc(n *Note) (*Node, error) {
	if !f.docOK {
		f.doc, f.docErr = DecodeMsgPack(n.Desc)
		if f.docErr != nil {
			f.docErr = rebase(f.docErr, n.DescOff)
		}
		f.docOK = true
	}
	return f.doc, f.docErr
}

// v2Text strips the NUL terminator LLVM writes after V2 YAML metadata.
func v2Text(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// MetadataYAML returns the metadata as the YAML text llvm-readelf prints in
// its note dump: for V3+ the MessagePack converted to YAML, for V2 the
// stored YAML text as it is. It returns "" when there is no metadata.
func (f *File) MetadataYAML() (string, error) {
	n, err := f.MetadataNote()
	if err != nil || n == nil {
		return "", err
	}
	if n.Name == "AMD" {
		return string(v2Text(n.Desc)), nil
	}
	doc, err := f.msgpackDoc(n)
	if err != nil {
		return "", err
	}
	return YAML(doc), nil
}

// rebase adds base to the offset of a FormatError.
func rebase(err error, base int64) error {
	if fe, ok := err.(*FormatError); ok {
		return &FormatError{Off: fe.Off + base, Msg: fe.Msg}
	}
	return err
}
