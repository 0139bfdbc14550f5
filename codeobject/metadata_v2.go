package codeobject

func parseV2YAMLNode(b []byte, base int64) (*Node, error) {
	return nil, notSupported("V2 YAML metadata")
}
