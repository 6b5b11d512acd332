package sgf

import (
	"fmt"
	"io"
)

// Canonical output, as Format writes it:
//
//   - Every game tree starts with "(;FF[4]CA[UTF-8]": FF and CA are written
//     first in each root node, replacing any FF or CA stored there. All other
//     properties follow in their stored order (file order for parsed records),
//     unknown ones included; values are written raw, as stored.
//   - A node with one child continues its sequence (";B[pd];W[dd]"), so OGS's
//     one-variation-per-move nesting comes out flat; a node with several
//     children ends its sequence and each child starts a "(" variation.
//   - Line breaks: after the root node, before every "(" of a variation, and
//     before any node that has a property other than B and W; a line holds at
//     most 16 move-only nodes. The output ends with a newline.
//   - A raw value that could not be parsed back (an unescaped "]" or a lone
//     trailing backslash, possible only in values set by hand) is escaped.
//
// Parsing the output gives a tree that is EqualCanonical to the input, and
// formatting that tree again gives the same bytes.

// Format returns the canonical SGF text of the given game trees.
func Format(games ...*Node) ([]byte, error) {
	var b []byte
	for gi, g := range games {
		if g == nil {
			return nil, fmt.Errorf("sgf: game %d is nil", gi+1)
		}
		var err error
		b, err = appendTree(b, g)
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Format returns the canonical SGF text of the collection.
func (c *Collection) Format() ([]byte, error) { return Format(c.Games...) }

// WriteTo writes the canonical SGF text of the collection to w.
func (c *Collection) WriteTo(w io.Writer) (int64, error) {
	b, err := c.Format()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// appendTree writes one game tree without recursion.
func appendTree(b []byte, root *Node) ([]byte, error) {
	type item struct {
		n     *Node
		close bool
	}
	stack := []item{{n: root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.close {
			b = append(b, ')')
			if len(stack) == 0 {
				b = append(b, '\n')
			}
			continue
		}
		n := it.n
		if n != root {
			b = append(b, '\n')
		}
		b = append(b, '(')
		run := 0
		for {
			moveOnly := isMoveOnly(n)
			if n != it.n && (!moveOnly || run >= 16 || n.Parent == root) {
				b = append(b, '\n')
				run = 0
			}
			var err error
			b, err = appendNode(b, n, n == root)
			if err != nil {
				return nil, err
			}
			if moveOnly {
				run++
			} else {
				run = 16 // whatever follows starts a new line
			}
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		stack = append(stack, item{close: true})
		for i := len(n.Children) - 1; i >= 0; i-- {
			if n.Children[i] == nil {
				return nil, fmt.Errorf("sgf: nil child node")
			}
			stack = append(stack, item{n: n.Children[i]})
		}
	}
	return b, nil
}

func isMoveOnly(n *Node) bool {
	for _, p := range n.Props {
		if p.ID != "B" && p.ID != "W" {
			return false
		}
	}
	return true
}

func appendNode(b []byte, n *Node, root bool) ([]byte, error) {
	b = append(b, ';')
	if root {
		b = append(b, "FF[4]CA[UTF-8]"...)
	}
	for _, p := range n.Props {
		if root && (p.ID == "FF" || p.ID == "CA") {
			continue
		}
		if p.ID == "" || !allUpper(p.ID) {
			return nil, fmt.Errorf("sgf: invalid property identifier %q", p.ID)
		}
		if len(p.Values) == 0 {
			return nil, fmt.Errorf("sgf: property %s has no value", p.ID)
		}
		b = append(b, p.ID...)
		for _, v := range p.Values {
			b = append(b, '[')
			b = appendRaw(b, v)
			b = append(b, ']')
		}
	}
	return b, nil
}

// appendRaw appends a raw value, escaping what would break the syntax and
// normalising line breaks to "\n" as the parser does.
func appendRaw(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			b = append(b, '\\')
			i++
			c = v[i]
		case c == '\\' || c == ']':
			b = append(b, '\\', c)
			continue
		}
		if c == '\r' || c == '\n' {
			b = append(b, '\n')
			if i+1 < len(v) && (v[i+1] == '\r' || v[i+1] == '\n') && v[i+1] != c {
				i++
			}
			continue
		}
		b = append(b, c)
	}
	return b
}
