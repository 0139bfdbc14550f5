package codeobject

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file writes YAML text exactly as LLVM's yaml::Output does, which is
// what llvm-readelf prints for the "AMDGPU Metadata" note (msgpack converted
// to YAML through msgpack::Document::toYAML) and what LLVM stores as V2 YAML
// metadata.

// YAML returns the metadata document n as the YAML text llvm-readelf prints
// in its "AMDGPU Metadata" note dump: "---\n", the document with map keys in
// LLVM's order, "...\n".
func YAML(n *Node) string {
	var w yamlWriter
	w.tags = true
	w.doc(n)
	return w.b.String()
}

type yamlWriter struct {
	b    strings.Builder
	tags bool // msgpack::Document mode: add !str/!int/!nil tags
	sort bool
}

func (w *yamlWriter) doc(n *Node) {
	w.b.WriteString("---")
	switch {
	case n.Kind == KindMap && len(n.Map) > 0:
		w.b.WriteString("\n")
		w.mapBody(n, 0, false)
	case n.Kind == KindArray && len(n.Array) > 0 && !n.flow():
		w.b.WriteString("\n")
		w.seqBody(n, 0)
	default:
		w.b.WriteString(" ")
		w.inline(n)
		w.b.WriteString("\n")
	}
	w.b.WriteString("...\n")
}

// flow reports whether an array is written in flow style (V2 metadata's
// integer vectors).
func (n *Node) flow() bool { return n.Kind == KindArray && n.Flow }

// mapBody writes the entries of a non-empty map at indent; if inSeq, the
// first key continues a "- " already written.
func (w *yamlWriter) mapBody(n *Node, indent int, inSeq bool) {
	entries := n.Map
	if w.tags {
		entries = n.SortedMap()
	}
	for i, e := range entries {
		if i > 0 || !inSeq {
			w.b.WriteString(strings.Repeat(" ", indent))
		}
		key := e.Key.Scalar()
		w.b.WriteString(key)
		w.b.WriteString(":")
		v := e.Value
		switch {
		case v.Kind == KindMap && len(v.Map) > 0:
			w.b.WriteString("\n")
			w.mapBody(v, indent+2, false)
		case v.Kind == KindArray && len(v.Array) > 0 && !v.flow():
			w.b.WriteString("\n")
			w.seqBody(v, indent+2)
		default:
			if len(key) < 16 {
				w.b.WriteString(strings.Repeat(" ", 16-len(key)))
			} else {
				w.b.WriteString(" ")
			}
			w.inline(v)
			w.b.WriteString("\n")
		}
	}
}

func (w *yamlWriter) seqBody(n *Node, indent int) {
	for _, e := range n.Array {
		switch {
		case e.Kind == KindArray && !e.flow() && w.tags:
			// LLVM 15's msgpack-to-YAML writer loses the "- " of an array
			// directly inside an array: a non-empty one has its items one
			// level deeper, an empty one is "[]" at column 0. (The text is
			// not valid YAML; AMDGPU metadata never nests arrays so.)
			if len(e.Array) == 0 {
				w.b.WriteString("[]\n")
			} else {
				w.seqBody(e, indent+2)
			}
			continue
		}
		w.b.WriteString(strings.Repeat(" ", indent))
		w.b.WriteString("- ")
		switch {
		case e.Kind == KindMap && len(e.Map) > 0:
			w.mapBody(e, indent+2, true)
		default:
			w.inline(e)
			w.b.WriteString("\n")
		}
	}
}

// inline writes a scalar, an empty collection or a flow sequence.
func (w *yamlWriter) inline(n *Node) {
	switch n.Kind {
	case KindMap:
		w.b.WriteString("{}")
		return
	case KindArray:
		if n.flow() {
			w.b.WriteString("[ ")
			for i, e := range n.Array {
				if i > 0 {
					w.b.WriteString(", ")
				}
				w.inline(e)
			}
			w.b.WriteString(" ]")
			return
		}
		w.b.WriteString("[]")
		return
	}
	s := n.Scalar()
	if w.tags {
		if tag := yamlTag(n); tag != "" {
			w.b.WriteString(tag)
			w.b.WriteString(" ")
		}
	}
	q := quoteNone
	if n.Kind == KindString || n.Kind == KindBinary || n.Kind == KindNil {
		q = needsQuotes(s)
	}
	writeScalar(&w.b, s, q)
}

// yamlTag is LLVM's ScalarDocNode::getYAMLTag: a tag only where reading the
// text back would give a different kind.
func yamlTag(n *Node) string {
	if n.Kind == KindNil {
		return "!nil"
	}
	k := kindFromString(n.Scalar())
	if k == n.Kind || (k == KindUint && n.Kind == KindInt) || (k == KindInt && n.Kind == KindUint) {
		return ""
	}
	switch n.Kind {
	case KindString, KindBinary:
		return "!str"
	case KindInt, KindUint:
		return "!int"
	case KindBool:
		return "!bool"
	case KindFloat:
		return "!float"
	}
	return ""
}

// kindFromString is the kind LLVM's ScalarDocNode::fromString gives text
// without a tag: unsigned, signed, bool, float, else string.
func kindFromString(s string) NodeKind {
	if s == "" {
		// LLVM reads an empty plain scalar back as something other than a
		// string, so it tags the empty string (pinned by TestYAMLQuotingMatchesLLVM).
		return KindNil
	}
	if _, ok := llvmUint(s); ok {
		return KindUint
	}
	if strings.HasPrefix(s, "-") {
		if _, ok := llvmUint(s[1:]); ok {
			return KindInt
		}
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return KindBool
	}
	if s != "" {
		t := strings.TrimLeft(s, " \t\n\v\f\r")
		if _, err := strconv.ParseFloat(t, 64); err == nil || isRangeErr(err) {
			if !strings.ContainsRune(t, '_') {
				return KindFloat
			}
		}
	}
	return KindString
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// llvmUint parses like StringRef::getAsInteger with radix 0.
func llvmUint(s string) (uint64, bool) {
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case strings.HasPrefix(s, "0o"):
		base, s = 8, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if s == "" {
		return 0, false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, err == nil
}

type quoting int

const (
	quoteNone quoting = iota
	quoteSingle
	quoteDouble
)

// needsQuotes is LLVM's yaml::needsQuotes.
func needsQuotes(s string) quoting {
	if s == "" {
		return quoteSingle
	}
	q := quoteNone
	if isYAMLSpace(s[0]) || isYAMLSpace(s[len(s)-1]) {
		q = quoteSingle
	}
	switch s {
	case "null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE":
		q = quoteSingle
	}
	if isYAMLNumeric(s) {
		q = quoteSingle
	}
	if strings.IndexByte(`-?:\,[]{}#&*!|>'"%@`+"`", s[0]) >= 0 {
		q = max(q, quoteSingle)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '_', c == '-', c == '^', c == '.', c == ',', c == ' ', c == '\t':
		case c == '\n', c == '\r':
			q = quoteDouble
		case c == 0x7f:
			return quoteDouble
		case c <= 0x1f, c&0x80 != 0:
			return quoteDouble
		default:
			q = max(q, quoteSingle)
		}
	}
	return q
}

func isYAMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isYAMLNumeric(s string) bool {
	skip := func(t string) string {
		i := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return t[i:]
	}
	if s == "" || s == "+" || s == "-" {
		return false
	}
	if s == ".nan" || s == ".NaN" || s == ".NAN" {
		return true
	}
	tail := s
	if s[0] == '-' || s[0] == '+' {
		tail = s[1:]
	}
	if tail == ".inf" || tail == ".Inf" || tail == ".INF" {
		return true
	}
	if strings.HasPrefix(s, "0o") {
		return len(s) > 2 && strings.Trim(s[2:], "01234567") == ""
	}
	if strings.HasPrefix(s, "0x") {
		return len(s) > 2 && strings.Trim(s[2:], "0123456789abcdefABCDEF") == ""
	}
	t := tail
	if strings.HasPrefix(t, ".") && (t == "." || (len(t) > 1 && (t[1] < '0' || t[1] > '9'))) {
		return false
	}
	if strings.HasPrefix(t, "E") || strings.HasPrefix(t, "e") {
		return false
	}
	t = skip(t)
	if t == "" {
		return true
	}
	switch t[0] {
	case '.':
		t = skip(t[1:])
		if t == "" {
			return true
		}
		if t[0] != 'e' && t[0] != 'E' {
			return false
		}
		t = t[1:]
	case 'e', 'E':
		t = t[1:]
	default:
		return false
	}
	if t == "" {
		return false
	}
	if t[0] == '+' || t[0] == '-' {
		t = t[1:]
		if t == "" {
			return false
		}
	}
	return skip(t) == ""
}

func writeScalar(b *strings.Builder, s string, q quoting) {
	if s == "" {
		b.WriteString("''")
		return
	}
	switch q {
	case quoteNone:
		b.WriteString(s)
	case quoteSingle:
		b.WriteString("'")
		b.WriteString(strings.ReplaceAll(s, "'", "''"))
		b.WriteString("'")
	case quoteDouble:
		b.WriteString(`"`)
		b.WriteString(yamlEscape(s))
		b.WriteString(`"`)
	}
}

// yamlEscape is LLVM's yaml::escape with EscapePrintable false.
func yamlEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case 0:
			b.WriteString(`\0`)
		case 7:
			b.WriteString(`\a`)
		case 8:
			b.WriteString(`\b`)
		case 9:
			b.WriteString(`\t`)
		case 10:
			b.WriteString(`\n`)
		case 11:
			b.WriteString(`\v`)
		case 12:
			b.WriteString(`\f`)
		case 13:
			b.WriteString(`\r`)
		case 0x1b:
			b.WriteString(`\e`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\x%02X`, c)
			} else if c < 0x80 {
				b.WriteByte(c)
			} else {
				r, size := utf8.DecodeRuneInString(s[i:])
				switch {
				case r == utf8.RuneError && size <= 1:
					b.WriteString(`\xFFFD`)
					size = 1
				case r == 0x85:
					b.WriteString(`\N`)
				case r == 0xA0:
					b.WriteString(`\_`)
				case r == 0x2028:
					b.WriteString(`\L`)
				case r == 0x2029:
					b.WriteString(`\P`)
				case unicode.IsPrint(r):
					b.WriteString(s[i : i+size])
				case r <= 0xFF:
					fmt.Fprintf(&b, `\x%02X`, r)
				case r <= 0xFFFF:
					fmt.Fprintf(&b, `\u%04X`, r)
				default:
					fmt.Fprintf(&b, `\U%08X`, r)
				}
				i += size
				continue
			}
		}
		i++
	}
	return b.String()
}
