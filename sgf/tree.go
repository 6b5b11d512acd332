package sgf

// Collection is the content of one SGF file: one or more game trees.
type Collection struct {
	// Games holds the root node of every game tree, in file order.
	Games []*Node

	// Charset names the character set the input was decoded from (for
	// example "UTF-8", "GB18030", "ISO-8859-1"). The tree itself always holds
	// UTF-8 text, and the writer always writes UTF-8 with CA[UTF-8].
	Charset string

	// Warnings lists every repair the parser made and every oddity it
	// noticed, sorted by position. A file with warnings was still read.
	Warnings ErrorList
}

// Node is one node of a game tree: a list of properties, a parent and the
// variations that follow it. Children[0] is the main line.
//
// The raw properties are the source of truth: typed accessors such as Move,
// Points and GameInfo interpret them on demand and never cache anything, so
// editing Props directly is always safe.
type Node struct {
	// Props lists the node's properties in the order they appeared in the
	// file (for parsed nodes) or were added.
	Props []Property

	// Parent is nil for a root node.
	Parent *Node

	// Children holds the variations after this node; the first is the main line.
	Children []*Node

	// Pos is where the node's ';' was in the input; zero for nodes built in memory.
	Pos Position
}

// Property is one property of a node: an identifier and one or more values.
//
// Values are kept raw, the way SGF writes them, but decoded to UTF-8 and with
// every line break normalised to "\n": escapes ("\]", "\\", "\:") and soft line
// breaks (a backslash before a newline) are still present, because their
// meaning depends on the property's type (Text, SimpleText, composed values).
// Use UnescapeText, UnescapeSimpleText and SplitCompose to interpret them,
// and the Set*Text helpers to store plain text.
type Property struct {
	ID     string   // upper-case identifier such as "B", "AB", "C"
	Values []string // raw values, at least one
}

// NewNode returns an empty node without parent or children.
func NewNode() *Node { return &Node{} }

// AddChild appends child as the last variation of n and sets child's parent.
// It returns child so that calls can be chained.
func (n *Node) AddChild(child *Node) *Node {
	child.Parent = n
	n.Children = append(n.Children, child)
	return child
}

// Property returns a pointer to the property id in n, or nil if n has none.
// The pointer stays valid until n.Props is changed.
func (n *Node) Property(id string) *Property {
	for i := range n.Props {
		if n.Props[i].ID == id {
			return &n.Props[i]
		}
	}
	return nil
}

// Has reports whether n has the property id.
func (n *Node) Has(id string) bool { return n.Property(id) != nil }

// Value returns the first raw value of property id and whether n has it.
func (n *Node) Value(id string) (string, bool) {
	p := n.Property(id)
	if p == nil || len(p.Values) == 0 {
		return "", false
	}
	return p.Values[0], true
}

// Values returns the raw values of property id, or nil if n has none.
func (n *Node) Values(id string) []string {
	if p := n.Property(id); p != nil {
		return p.Values
	}
	return nil
}

// Set replaces the values of property id with the given raw values (already
// escaped as SGF requires), adding the property at the end if n lacks it.
// Calling Set without values deletes the property.
func (n *Node) Set(id string, raw ...string) {
	if len(raw) == 0 {
		n.Delete(id)
		return
	}
	vals := append([]string(nil), raw...)
	if p := n.Property(id); p != nil {
		p.Values = vals
		return
	}
	n.Props = append(n.Props, Property{ID: id, Values: vals})
}

// SetText stores text (plain UTF-8, any characters) as the single value of a
// Text property such as C or GC, escaping it as needed.
func (n *Node) SetText(id, text string) { n.Set(id, EscapeText(text)) }

// SetSimpleText stores text as the single value of a SimpleText property such
// as PB or RE. Line breaks in text become spaces when the value is read back.
func (n *Node) SetSimpleText(id, text string) { n.Set(id, EscapeText(text)) }

// Delete removes property id from n; it does nothing if n lacks it.
func (n *Node) Delete(id string) {
	for i := range n.Props {
		if n.Props[i].ID == id {
			n.Props = append(n.Props[:i:i], n.Props[i+1:]...)
			return
		}
	}
}

// Root returns the root of the tree that n belongs to.
func (n *Node) Root() *Node {
	for n.Parent != nil {
		n = n.Parent
	}
	return n
}

// MainLine returns the nodes from n down the first variation at every
// branch, n included.
func (n *Node) MainLine() []*Node {
	var line []*Node
	for ; n != nil; n = first(n.Children) {
		line = append(line, n)
	}
	return line
}

// Path returns the nodes from n following the given variation choices: at
// the k-th branching node (a node with more than one child) the path takes
// child choices[k]; after the choices run out it follows the main line. It
// reports false if a choice is out of range.
func (n *Node) Path(choices []int) ([]*Node, bool) {
	var line []*Node
	k := 0
	for n != nil {
		line = append(line, n)
		switch {
		case len(n.Children) == 0:
			n = nil
		case len(n.Children) > 1 && k < len(choices):
			c := choices[k]
			k++
			if c < 0 || c >= len(n.Children) {
				return line, false
			}
			n = n.Children[c]
		default:
			n = n.Children[0]
		}
	}
	return line, true
}

func first(ns []*Node) *Node {
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}

// Walk calls f for every node of the tree rooted at n in pre-order (a node
// before its children, variations in order). It uses an explicit stack, so
// trees of any depth are safe. If f returns false, Walk does not descend into
// that node's children.
func (n *Node) Walk(f func(*Node) bool) {
	stack := []*Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !f(x) {
			continue
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, x.Children[i])
		}
	}
}

// Equal reports whether the trees rooted at a and b have the same shape and
// the same properties, in the same order, with the same raw values. Positions
// are ignored. It works without recursion.
func Equal(a, b *Node) bool {
	return equalTrees(a, b, false)
}

// equalTrees compares two trees; with skipFormat it ignores FF and CA in the
// root nodes, which the writer always replaces.
func equalTrees(a, b *Node, skipFormat bool) bool {
	type pair struct{ a, b *Node }
	stack := []pair{{a, b}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.a == nil || p.b == nil {
			if p.a != p.b {
				return false
			}
			continue
		}
		skip := skipFormat && p.a.Parent == nil
		if !equalProps(p.a.Props, p.b.Props, skip) || len(p.a.Children) != len(p.b.Children) {
			return false
		}
		for i := range p.a.Children {
			stack = append(stack, pair{p.a.Children[i], p.b.Children[i]})
		}
	}
	return true
}

func equalProps(a, b []Property, skipFormat bool) bool {
	if skipFormat {
		a, b = withoutFormat(a), withoutFormat(b)
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || len(a[i].Values) != len(b[i].Values) {
			return false
		}
		for j := range a[i].Values {
			if a[i].Values[j] != b[i].Values[j] {
				return false
			}
		}
	}
	return true
}

func withoutFormat(ps []Property) []Property {
	out := make([]Property, 0, len(ps))
	for _, p := range ps {
		if p.ID != "FF" && p.ID != "CA" {
			out = append(out, p)
		}
	}
	return out
}

// EqualCanonical reports whether a and b are the same tree once written: it
// is Equal except that FF and CA in the root nodes are ignored, because the
// writer always writes FF[4] and CA[UTF-8]. Parsing the writer's output of a
// tree gives a tree that is EqualCanonical to it.
func EqualCanonical(a, b *Node) bool {
	return equalTrees(a, b, true)
}
