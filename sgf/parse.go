package sgf

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Options changes how Parse reads its input. The zero value is the default.
type Options struct {
	// Charset, if not empty, overrides the CA property and the detection
	// rules, for files whose CA is wrong. Names are WHATWG or IANA labels
	// such as "UTF-8", "GB18030", "Shift_JIS", "EUC-KR", "ISO-8859-1".
	Charset string
}

// Parse reads an SGF collection (FF[1] to FF[4]) with default options.
// See ParseOptions.
func Parse(data []byte) (*Collection, error) {
	return ParseOptions(data, Options{})
}

// ParseOptions reads an SGF collection. It never panics and never recurses,
// so variations may be nested to any depth.
//
// The input is first decoded to UTF-8 (see the package documentation for the
// charset rules), then parsed. Problems that can be repaired are repaired and
// listed in the returned collection's Warnings, each with its line and column.
// If the input cannot be read (no game tree at all, a value that never ends),
// the error is an ErrorList with positions; the collection is then still
// returned with the games read before the problem and the warnings so far.
func ParseOptions(data []byte, opt Options) (*Collection, error) {
	src, charset, cw := decode(data, opt.Charset)
	p := &parser{s: src}
	p.warns = append(p.warns, cw...)
	p.parse()
	c := &Collection{Games: p.games, Charset: charset}
	lt := newLineTable(src)
	p.fillPositions(lt)
	for _, g := range p.games {
		p.convertOld(g)
	}
	for _, w := range p.warns {
		c.Warnings.Add(lt.pos(w.off), w.msg)
	}
	c.Warnings = append(c.Warnings, p.posWarns...)
	c.Warnings.Sort()
	// The tree now holds UTF-8 text, so a CA property naming the original
	// charset would be false; it is rewritten rather than dropped so that the
	// property list keeps its order.
	for _, g := range c.Games {
		if ca := g.Property("CA"); ca != nil {
			ca.Values = []string{"UTF-8"}
		}
	}
	if len(p.errs) > 0 {
		var el ErrorList
		for _, e := range p.errs {
			el.Add(lt.pos(e.off), e.msg)
		}
		return c, el
	}
	return c, nil
}

// convertOld rewrites the FF[1]-FF[3] markup properties that FF[4] replaced,
// so that the FF[4] output means the same to other readers: L (letters a, b,
// c, ... on the given points) becomes LB, and M (marks) becomes MA. It
// applies only to games whose root says FF[1], FF[2] or FF[3], where L and M
// cannot mean anything else.
func (p *parser) convertOld(root *Node) {
	ff, _ := root.Value("FF")
	switch strings.TrimSpace(ff) {
	case "1", "2", "3":
	default:
		return
	}
	warned := map[string]bool{} // one warning per game and property
	root.Walk(func(n *Node) bool {
		if l := n.Property("L"); l != nil && !n.Has("LB") {
			vals := make([]string, len(l.Values))
			for i, v := range l.Values {
				vals[i] = v + ":" + string(rune('a'+i%26))
			}
			l.ID, l.Values = "LB", vals
			if !warned["L"] {
				warned["L"] = true
				p.warnAt(n.Pos, "FF[%s] property L read as LB (here and in later nodes)", ff)
			}
		}
		if m := n.Property("M"); m != nil && !n.Has("MA") {
			m.ID = "MA"
			if !warned["M"] {
				warned["M"] = true
				p.warnAt(n.Pos, "FF[%s] property M read as MA (here and in later nodes)", ff)
			}
		}
		return true
	})
}

// diag is a warning or error at a byte offset of the decoded source; offsets
// become line:column only at the end, so the hot loop does not count lines.
type diag struct {
	off int
	msg string
}

type parser struct {
	s        string
	i        int
	games    []*Node
	count    int // nodes made so far
	warns    []diag
	posWarns ErrorList // warnings made after positions were filled in
	errs     []diag

	// Slabs: nodes, properties, values and child slices are carved out of
	// larger arrays to avoid one allocation per node. Sub-slices are capped
	// (s[i:j:j]) so that a later append by a user reallocates instead of
	// overwriting a neighbour.
	nodes  []Node
	chunks [][]Node // every node slab, for nodeRef
	props  []Property
	vals   []string
	kids   []*Node

	vbuf  []string // values of the property being read
	stray []int    // offsets of stray ']' in the value being read
}

// maxWarnings bounds the work spent on garbage input.
const maxWarnings = 1000

func (p *parser) warn(off int, format string, args ...any) {
	if len(p.warns) >= maxWarnings {
		if len(p.warns) == maxWarnings {
			p.warns = append(p.warns, diag{off, "too many warnings; no more are reported"})
		}
		return
	}
	p.warns = append(p.warns, diag{off, fmt.Sprintf(format, args...)})
}

// warnAt records a warning at a known position (after fillPositions).
func (p *parser) warnAt(pos Position, format string, args ...any) {
	p.posWarns = append(p.posWarns, &Error{Line: pos.Line, Col: pos.Col, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) fail(off int, format string, args ...any) {
	p.errs = append(p.errs, diag{off, fmt.Sprintf(format, args...)})
}

const slabMax = 4096

func (p *parser) newNode(off int) *Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]Node, 0, grow(cap(p.nodes)))
		p.chunks = append(p.chunks, p.nodes)
	}
	p.count++
	p.nodes = p.nodes[:len(p.nodes)+1]
	n := &p.nodes[len(p.nodes)-1]
	// Until fillPositions runs, Pos.Col holds the byte offset + 1.
	n.Pos.Col = off + 1
	return n
}

func grow(c int) int {
	switch {
	case c < 64:
		return 64
	case c >= slabMax:
		return slabMax
	}
	return 2 * c
}

func (p *parser) addChild(parent, child *Node) {
	child.Parent = parent
	if len(parent.Children) > 0 {
		parent.Children = append(parent.Children, child)
		return
	}
	if len(p.kids) == cap(p.kids) {
		p.kids = make([]*Node, 0, grow(cap(p.kids)))
	}
	k := len(p.kids)
	p.kids = append(p.kids, child)
	parent.Children = p.kids[k : k+1 : k+1]
}

func (p *parser) allocVals(vs []string) []string {
	n := len(vs)
	if n > slabMax/4 {
		return append([]string(nil), vs...)
	}
	if len(p.vals)+n > cap(p.vals) {
		p.vals = make([]string, 0, max(grow(cap(p.vals)), n))
	}
	k := len(p.vals)
	p.vals = append(p.vals, vs...)
	return p.vals[k : k+n : k+n]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

func isUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func isLetter(c byte) bool { return isUpper(c) || isLower(c) }

func (p *parser) skipSpace() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}

// parse reads game trees until the end of the input or a fatal error.
func (p *parser) parse() {
	for {
		start := p.findTree()
		if start < 0 {
			break
		}
		if !p.gameTree() {
			return
		}
	}
	if len(p.games) == 0 {
		p.fail(len(p.s), "no SGF game tree found (expected \"(;\")")
	}
}

// findTree skips to the next "(" that starts a game tree ("(" followed by
// optional white space and ";"), warning about any text skipped, and returns
// its offset or -1 at the end of the input.
func (p *parser) findTree() int {
	from := p.i
	junk := -1
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '(' {
			j := p.i + 1
			for j < len(p.s) && isSpace(p.s[j]) {
				j++
			}
			if j < len(p.s) && (p.s[j] == ';' || p.s[j] == '(') {
				break
			}
		}
		if !isSpace(c) && junk < 0 {
			junk = p.i
		}
		p.i++
	}
	if junk >= 0 {
		where := "before the game tree"
		if len(p.games) > 0 {
			where = "between or after game trees"
		}
		p.warn(junk, "ignored %d bytes of text %s", p.i-junk, where)
	}
	_ = from
	if p.i >= len(p.s) {
		return -1
	}
	return p.i
}

// nodeRef names a node by its slab and index. The variation stack holds
// these rather than pointers: a deep stack of pointers costs GC write
// barriers on every growth, which showed up as a quarter of the parse time of
// OGS-style trees.
type nodeRef struct{ chunk, idx int32 }

var noNode = nodeRef{-1, -1}

// lastRef names the node newNode made last.
func (p *parser) lastRef() nodeRef {
	return nodeRef{int32(len(p.chunks) - 1), int32(len(p.nodes) - 1)}
}

func (p *parser) node(r nodeRef) *Node {
	if r.chunk < 0 {
		return nil
	}
	c := p.chunks[r.chunk] // stored with length 0; its capacity is the slab
	return &c[:cap(c)][r.idx]
}

// gameTree reads one game tree starting at "(", with an explicit stack
// instead of recursion. It returns false after a fatal error.
func (p *parser) gameTree() bool {
	// stack[k] names the node after which the k-th open variation hangs
	// (none at the top level); cur is the last node of the sequence being
	// read.
	type frame struct {
		parent nodeRef // cur when the "(" was read
		count  int     // p.count then, to recognise an empty variation
	}
	stack := make([]frame, 0, 16)
	curRef := noNode
	var cur, root *Node
	junk := -1
	flushJunk := func() {
		if junk >= 0 {
			p.warn(junk, "ignored unexpected text %q", clip(p.s[junk:p.i]))
			junk = -1
		}
	}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			flushJunk()
			p.warn(p.i, "missing %d closing parentheses at the end of the input", len(stack))
			return true
		}
		c := p.s[p.i]
		switch {
		case c == '(':
			flushJunk()
			stack = append(stack, frame{curRef, p.count})
			p.i++
		case c == ')':
			flushJunk()
			if len(stack) == 0 { // cannot happen: gameTree starts at "("
				p.i++
				return true
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if p.count == top.count {
				p.warn(p.i, "empty variation ignored")
			}
			cur, curRef = p.node(top.parent), top.parent
			p.i++
			if len(stack) == 0 {
				return true
			}
		case c == ';':
			flushJunk()
			n := p.newNode(p.i)
			p.i++
			switch {
			case cur != nil:
				p.addChild(cur, n)
			case root == nil:
				root = n
				p.games = append(p.games, n)
			default:
				// "((;a)(;b))": variations without a common root. Each
				// becomes a game of its own rather than being lost.
				p.warn(p.i-1, "game tree without a root node: variation read as a separate game")
				p.games = append(p.games, n)
			}
			cur, curRef = n, p.lastRef()
			if !p.properties(n) {
				return false
			}
		case isLetter(c) && cur != nil && junk < 0:
			// Properties after junk inside a node, or after a ")" of a
			// variation: they belong to the current node.
			if !p.properties(cur) {
				return false
			}
		default:
			if junk < 0 {
				junk = p.i
			}
			p.i++
		}
	}
}

func clip(s string) string {
	if len(s) > 20 {
		s = s[:20]
		for !utf8.ValidString(s) && len(s) > 0 {
			s = s[:len(s)-1]
		}
		return s + "..."
	}
	return s
}

// properties reads the properties of node n, up to the next ";", "(", ")",
// the end of the input, or a character that cannot start a property. The
// properties go straight into the property slab: a node's properties are
// contiguous there because nodes are read one after the other.
func (p *parser) properties(n *Node) bool {
	start := len(p.props)
	for {
		p.skipSpace()
		if p.i >= len(p.s) || !isLetter(p.s[p.i]) {
			break
		}
		idStart := p.i
		for p.i < len(p.s) && isLetter(p.s[p.i]) {
			p.i++
		}
		id := p.s[idStart:p.i]
		if !allUpper(id) {
			norm := normaliseID(id)
			p.warn(idStart, "property identifier %q read as %q", id, norm)
			id = norm
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '[' {
			p.warn(idStart, "property %s without a value ignored", id)
			continue
		}
		v, ok := p.value()
		if !ok {
			p.props = p.props[:start]
			return false
		}
		p.skipSpace()
		var vals []string
		if p.i < len(p.s) && p.s[p.i] == '[' {
			p.vbuf = append(p.vbuf[:0], v)
			for p.i < len(p.s) && p.s[p.i] == '[' {
				v, ok := p.value()
				if !ok {
					p.props = p.props[:start]
					return false
				}
				p.vbuf = append(p.vbuf, v)
				p.skipSpace()
			}
			vals = p.allocVals(p.vbuf)
		} else {
			// The common case, one value: no copy through vbuf.
			if len(p.vals) == cap(p.vals) {
				p.vals = make([]string, 0, grow(cap(p.vals)))
			}
			k := len(p.vals)
			p.vals = append(p.vals, v)
			vals = p.vals[k : k+1 : k+1]
		}
		if p.merge(n.Props, idStart, id, vals) || p.merge(p.props[start:], idStart, id, vals) {
			continue
		}
		if len(p.props) == cap(p.props) {
			// Move this node's properties so far to a new slab.
			old := p.props[start:]
			p.props = make([]Property, 0, max(grow(cap(p.props)), 2*len(old)+1))
			p.props = append(p.props, old...)
			start = 0
		}
		p.props = append(p.props, Property{ID: id, Values: vals})
	}
	if len(p.props) > start {
		added := p.props[start:len(p.props):len(p.props)]
		if len(n.Props) == 0 {
			n.Props = added
		} else {
			n.Props = append(n.Props, added...)
		}
	}
	return true
}

// merge adds vals to the property id in list if there is one: repeated
// properties in one node become one property with all the values.
func (p *parser) merge(list []Property, off int, id string, vals []string) bool {
	for k := range list {
		if list[k].ID == id {
			p.warn(off, "duplicate property %s in one node: values merged", id)
			list[k].Values = append(list[k].Values, vals...)
			return true
		}
	}
	return false
}

func allUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isUpper(s[i]) {
			return false
		}
	}
	return true
}

// normaliseID applies FF[3]'s rule that lower-case letters in a property
// identifier are to be ignored ("CoPyright" is CP). An identifier made only
// of lower-case letters is upper-cased instead, as old programs wrote "b[pd]".
func normaliseID(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		if isUpper(id[i]) {
			b.WriteByte(id[i])
		}
	}
	if b.Len() == 0 {
		return strings.ToUpper(id)
	}
	return b.String()
}

// value reads one "[...]" value starting at p.s[p.i] == '['. The result is
// the raw text between the brackets, with line breaks normalised to "\n" and
// stray "]" escaped. Whenever possible it is a substring of the source,
// without copying.
func (p *parser) value() (string, bool) {
	open := p.i
	start := p.i + 1
	j := start
	s := p.s
	copyNeeded := false
	p.stray = p.stray[:0]
	for {
		if j >= len(s) {
			p.fail(open, "property value not terminated: missing \"]\"")
			p.i = len(s)
			return "", false
		}
		c := s[j]
		switch c {
		case ']':
			if p.strayBracket(j) {
				p.stray = append(p.stray, j)
				copyNeeded = true
				j++
				continue
			}
			p.i = j + 1
			if !copyNeeded {
				return s[start:j], true
			}
			return p.repair(start, j), true
		case '\\':
			if j+1 < len(s) && s[j+1] == '\r' {
				copyNeeded = true
			}
			j += 2
			continue
		case '\r':
			copyNeeded = true
		}
		j++
	}
}

// strayBracket decides whether the "]" at offset j ends the value or is an
// unescaped bracket inside it. A closing bracket is followed (after white
// space) by another value, a property identifier and its "[", a node, a
// variation, the end of a variation or the end of the input. Anything else
// (plain text) means the bracket was stray, provided the value still ends
// with a later "]".
func (p *parser) strayBracket(j int) bool {
	s := p.s
	k := j + 1
	for k < len(s) && isSpace(s[k]) {
		k++
	}
	if k >= len(s) {
		return false
	}
	switch c := s[k]; {
	case c == '[' || c == ';' || c == '(' || c == ')':
		return false
	case isLetter(c):
		for k < len(s) && isLetter(s[k]) {
			k++
		}
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) {
			return false
		}
		switch s[k] {
		case '[', ';', '(', ')':
			// A property, or a property without value: either way the
			// bracket ends the value.
			return false
		}
	}
	// Repair only if the value can end later, so that an unterminated file is
	// reported where the value began rather than at a far "]", and only if
	// no property starts before that later "]": text followed by "B[" is junk
	// between properties, not the rest of a value.
	e := strings.IndexByte(s[k:], ']')
	if e < 0 {
		return false
	}
	seg := s[k : k+e]
	for b := strings.IndexByte(seg, '['); b >= 0; {
		a := b
		for a > 0 && isSpace(seg[a-1]) {
			a--
		}
		if a > 0 && isUpper(seg[a-1]) {
			return false
		}
		nb := strings.IndexByte(seg[b+1:], '[')
		if nb < 0 {
			break
		}
		b += 1 + nb
	}
	return true
}

// repair builds a value that cannot be a substring of the source: line
// breaks ("\r\n", "\n\r", "\r") become "\n" and stray "]" are escaped.
func (p *parser) repair(start, end int) string {
	s := p.s[start:end]
	b := make([]byte, 0, len(s)+len(p.stray))
	st := p.stray
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case len(st) > 0 && start+i == st[0]:
			p.warn(st[0], "unescaped \"]\" inside a value read as part of the value")
			st = st[1:]
			b = append(b, '\\', ']')
		case c == '\\' && i+1 < len(s):
			b = append(b, '\\')
		case c == '\r':
			b = append(b, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c == '\n':
			b = append(b, '\n')
			if i+1 < len(s) && s[i+1] == '\r' {
				i++
			}
		default:
			b = append(b, c)
		}
		if c == '\\' && i+1 < len(s) {
			// The escaped character: a line break is normalised like any
			// other, anything else is copied as is.
			i++
			switch d := s[i]; d {
			case '\r', '\n':
				b = append(b, '\n')
				if i+1 < len(s) && s[i+1]^d == '\r'^'\n' {
					i++
				}
			default:
				b = append(b, d)
			}
		}
	}
	return string(b)
}

// fillPositions turns the byte offsets stored in parsed nodes into lines and
// columns in one pass over the source: nodes sit in the slabs in file order.
func (p *parser) fillPositions(lt *lineTable) {
	line, col, prev := 1, 1, 0
	visit := func(n *Node) {
		off := n.Pos.Col - 1
		if off < prev || off > len(p.s) {
			n.Pos = lt.pos(off) // out of order: cannot happen, but stay correct
			return
		}
		seg := p.s[prev:off]
		if nl, rest := lineBreaks(seg); nl > 0 {
			line += nl
			seg = seg[rest:]
			col = 1
		}
		col += utf8.RuneCountInString(seg)
		prev = off
		n.Pos = Position{Line: line, Col: col}
	}
	// Walk all games in pre-order; variations in the file come in the same
	// order, so offsets only grow.
	for _, g := range p.games {
		g.Walk(func(n *Node) bool { visit(n); return true })
	}
}

// lineBreaks counts the line breaks in s ("\n", "\r\n" and a lone "\r", as
// editors show them) and returns the offset just after the last one.
func lineBreaks(s string) (n, rest int) {
	if strings.IndexByte(s, '\r') < 0 {
		n = strings.Count(s, "\n")
		if n > 0 {
			rest = strings.LastIndexByte(s, '\n') + 1
		}
		return n, rest
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			n, rest = n+1, i+1
		case '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				n, rest = n+1, i+1
			}
		}
	}
	return n, rest
}

// lineTable converts byte offsets to positions for warnings and errors.
type lineTable struct {
	s      string
	starts []int
}

func newLineTable(s string) *lineTable { return &lineTable{s: s} }

func (t *lineTable) pos(off int) Position {
	if t.starts == nil {
		t.starts = append(t.starts, 0)
		for i := 0; i < len(t.s); i++ {
			switch t.s[i] {
			case '\n':
				t.starts = append(t.starts, i+1)
			case '\r':
				if i+1 >= len(t.s) || t.s[i+1] != '\n' {
					t.starts = append(t.starts, i+1)
				}
			}
		}
	}
	if off > len(t.s) {
		off = len(t.s)
	}
	l := sort.SearchInts(t.starts, off+1) - 1
	return Position{Line: l + 1, Col: utf8.RuneCountInString(t.s[t.starts[l]:off]) + 1}
}
