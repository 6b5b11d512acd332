package sgf

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// decode converts the input to UTF-8 following the rules in the package
// documentation and returns the text, the name of the charset used and any
// warnings.
func decode(data []byte, override string) (string, string, []diag) {
	var warns []diag
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		data = data[len(bomUTF8):]
		if override == "" {
			if ca, off, ok := findCA(data); ok && !isUTF8Name(ca) {
				warns = append(warns, diag{off, "CA[" + ca + "] contradicts the UTF-8 byte-order mark; read as UTF-8"})
			}
			s, w := utf8Text(data)
			return s, "UTF-8", append(warns, w...)
		}
	case bytes.HasPrefix(data, bomUTF16LE) || bytes.HasPrefix(data, bomUTF16BE):
		if override == "" {
			dec := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
			out, err := dec.Bytes(data)
			if err == nil {
				s, w := utf8Text(out)
				return s, "UTF-16", w
			}
		}
	}

	name := override
	caOff := 0
	if name == "" {
		ca, off, ok := findCA(data)
		if !ok {
			if utf8.Valid(data) {
				if !isASCII(data) {
					warns = append(warns, diag{0, "no CA property: the text is valid UTF-8 and is read as UTF-8 rather than the default ISO-8859-1"})
				}
				return string(data), "UTF-8", warns
			}
			s, _ := decodeWith(charmap.ISO8859_1, data)
			warns = append(warns, diag{0, "no CA property: read as ISO-8859-1 (the SGF default); if names look garbled, the file probably uses another charset such as GB18030"})
			return s, "ISO-8859-1", warns
		}
		name, caOff = ca, off
	}
	if isUTF8Name(name) {
		s, w := utf8Text(data)
		return s, "UTF-8", append(warns, w...)
	}
	enc, canon := lookupCharset(name)
	if enc == nil {
		if utf8.Valid(data) {
			warns = append(warns, diag{caOff, "unknown charset " + quote(name) + ": the text is valid UTF-8 and is read as UTF-8"})
			return string(data), "UTF-8", warns
		}
		warns = append(warns, diag{caOff, "unknown charset " + quote(name) + ": read as ISO-8859-1"})
		s, _ := decodeWith(charmap.ISO8859_1, data)
		return s, "ISO-8859-1", warns
	}
	if isASCII(data) {
		return string(data), canon, warns
	}
	s, bad := decodeWith(enc, data)
	if bad {
		warns = append(warns, diag{caOff, "bytes invalid in charset " + canon + " replaced by U+FFFD"})
	}
	return s, canon, warns
}

func quote(s string) string { return "\"" + clip(s) + "\"" }

// utf8Text returns data as a string, replacing invalid sequences.
func utf8Text(data []byte) (string, []diag) {
	if utf8.Valid(data) {
		return string(data), nil
	}
	off := 0
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	s := strings.ToValidUTF8(string(data), "\uFFFD")
	// off counts bytes of the original; the prefix before it is valid UTF-8
	// and identical in s.
	return s, []diag{{off, "invalid UTF-8 replaced by U+FFFD"}}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func isUTF8Name(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.ReplaceAll(strings.ReplaceAll(n, "-", ""), "_", "")
	return n == "utf8"
}

// decodeWith decodes data and reports whether invalid bytes were replaced.
func decodeWith(enc encoding.Encoding, data []byte) (string, bool) {
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		// The x/text decoders replace invalid input rather than fail; stay
		// safe anyway.
		return strings.ToValidUTF8(string(data), "\uFFFD"), true
	}
	bad := bytes.Contains(out, []byte("\uFFFD")) && !bytes.Contains(data, []byte("\uFFFD"))
	return string(out), bad
}

// lookupCharset finds an encoding by WHATWG label (which covers the common
// aliases such as "gb2312", "sjis", "cp949") or IANA name, trying the usual
// misspellings with "-" and "_" swapped.
func lookupCharset(name string) (encoding.Encoding, string) {
	n := strings.ToLower(strings.TrimSpace(name))
	cands := []string{n, strings.ReplaceAll(n, "-", "_"), strings.ReplaceAll(n, "_", "-"),
		strings.ReplaceAll(strings.ReplaceAll(n, "-", ""), "_", "")}
	for _, c := range cands {
		// Latin-1 stays Latin-1: WHATWG maps it to windows-1252, but SGF
		// names the real ISO-8859-1.
		switch c {
		case "iso-8859-1", "iso_8859-1", "iso8859-1", "iso88591", "latin1", "latin-1", "l1":
			return charmap.ISO8859_1, "ISO-8859-1"
		case "gb18030":
			// simplifiedchinese.GB18030 via the index below.
		}
		if e, err := htmlindex.Get(c); err == nil && e != nil {
			canon, _ := htmlindex.Name(e)
			return e, canonName(canon)
		}
		if e, err := ianaindex.IANA.Encoding(c); err == nil && e != nil {
			canon, _ := ianaindex.IANA.Name(e)
			return e, canonName(canon)
		}
	}
	return nil, ""
}

func canonName(n string) string {
	switch strings.ToLower(n) {
	case "gbk", "gb18030":
		return "GB18030"
	case "shift_jis":
		return "Shift_JIS"
	case "euc-kr":
		return "EUC-KR"
	case "euc-jp":
		return "EUC-JP"
	case "big5":
		return "Big5"
	}
	return strings.ToUpper(n)
}

// findCA finds the CA property of the first game's root node without
// decoding, which works because CA's value and the SGF syntax are ASCII. It
// returns the value and its byte offset. In charsets such as Shift_JIS a
// second byte may look like "\" or "]"; if the root node scan misses CA for
// that reason, a plain search for "CA[" in the first 4 KiB is the fallback.
func findCA(data []byte) (string, int, bool) {
	i := 0
	for i < len(data) {
		if data[i] == '(' {
			j := i + 1
			for j < len(data) && isSpace(data[j]) {
				j++
			}
			if j < len(data) && data[j] == ';' {
				i = j + 1
				break
			}
		}
		i++
	}
	for i < len(data) {
		c := data[i]
		switch {
		case c == ';' || c == '(' || c == ')':
			return findCARaw(data)
		case isLetter(c):
			st := i
			var id []byte
			for i < len(data) && isLetter(data[i]) {
				if isUpper(data[i]) {
					id = append(id, data[i])
				}
				i++
			}
			_ = st
			for i < len(data) && isSpace(data[i]) {
				i++
			}
			first := true
			for i < len(data) && data[i] == '[' {
				vs := i + 1
				i++
				for i < len(data) && data[i] != ']' {
					if data[i] == '\\' {
						i++
					}
					i++
				}
				if first && string(id) == "CA" && i <= len(data) {
					return strings.TrimSpace(string(data[vs:min(i, len(data))])), vs, true
				}
				first = false
				i++
				for i < len(data) && isSpace(data[i]) {
					i++
				}
			}
		case c == '[':
			for i < len(data) && data[i] != ']' {
				i++
			}
			i++
		default:
			i++
		}
	}
	return findCARaw(data)
}

func findCARaw(data []byte) (string, int, bool) {
	head := data[:min(len(data), 4096)]
	for off := 0; ; {
		k := bytes.Index(head[off:], []byte("CA["))
		if k < 0 {
			return "", 0, false
		}
		k += off
		if k == 0 || !isLetter(head[k-1]) {
			end := bytes.IndexByte(head[k+3:], ']')
			if end >= 0 && end < 40 {
				return strings.TrimSpace(string(head[k+3 : k+3+end])), k + 3, true
			}
		}
		off = k + 3
	}
}
