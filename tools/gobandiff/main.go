// Command gobandiff plays random games on two versions of the goban board
// (copied in by run.sh as oldgoban and newgoban) and prints every point where
// they disagree. It checked that the faster board of commits a58222a and
// 735e207 behaves as the board of 81a52d0 did (docs/STRENGTH.md).
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"sort"

	"gobandiff/newgoban"
	"gobandiff/oldgoban"
)

func main() {
	games := flag.Int("games", 600, "random games to play")
	flag.Parse()
	r := rand.New(rand.NewSource(1))
	bad := 0
	for game := 0; game < *games; game++ {
		size := []int{9, 13, 19, 5}[game%4]
		ob, _ := oldgoban.NewBoard(size, size)
		nb, _ := newgoban.NewBoard(size, size)
		var hist []int
		for mv := 0; mv < 3*size*size; mv++ {
			c := 1 + mv%2
			// candidates: all empties legal in old
			oe := ob.Empties()
			var legal []oldgoban.Loc
			for _, l := range oe {
				oerr := ob.Check(l, oldgoban.Color(c), false)
				nerr := nb.Check(newgoban.Loc(l), newgoban.Color(c), false)
				if (oerr == nil) != (nerr == nil) {
					fmt.Println("Check differs", game, mv, l, oerr, nerr)
					bad++
				}
				if ob.IsEye(l, oldgoban.Color(c)) != nb.IsEye(newgoban.Loc(l), newgoban.Color(c)) {
					fmt.Println("IsEye differs", game, mv, l)
					bad++
				}
				if ob.WouldCapture(l, oldgoban.Color(c)) != nb.WouldCapture(newgoban.Loc(l), newgoban.Color(c)) {
					fmt.Println("WouldCapture differs", game, mv, l)
					bad++
				}
				if oerr == nil && !ob.IsEye(l, oldgoban.Color(c)) {
					legal = append(legal, l)
				}
			}
			if len(legal) == 0 {
				break
			}
			l := legal[r.Intn(len(legal))]
			if r.Intn(20) == 0 && len(hist) > 0 {
				ob.Undo()
				nb.Undo()
				hist = hist[:len(hist)-1]
			} else {
				oc := ob.Play(l, oldgoban.Color(c))
				ncap := nb.Play(newgoban.Loc(l), newgoban.Color(c))
				if oc != ncap {
					fmt.Println("captures differ", game, mv, oc, ncap)
					bad++
				}
				hist = append(hist, int(l))
			}
			// compare full state
			if ob.Hash() != nb.Hash() {
				fmt.Println("hash differs", game, mv)
				bad++
			}
			oe2 := append([]oldgoban.Loc(nil), ob.Empties()...)
			ne2 := append([]newgoban.Loc(nil), nb.Empties()...)
			sort.Slice(oe2, func(i, j int) bool { return oe2[i] < oe2[j] })
			sort.Slice(ne2, func(i, j int) bool { return ne2[i] < ne2[j] })
			if len(oe2) != len(ne2) {
				fmt.Println("empties len differ", game, mv)
				bad++
			}
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					ol := ob.Loc(oldgoban.Point{X: x, Y: y})
					nl := nb.Loc(newgoban.Point{X: x, Y: y})
					if int(ol) != int(nl) {
						fmt.Println("loc differ")
						os.Exit(1)
					}
					if int(ob.ColorAt(ol)) != int(nb.ColorAt(nl)) {
						fmt.Println("color differs", game, mv, x, y)
						bad++
						continue
					}
					if ob.ColorAt(ol) == oldgoban.Empty {
						continue
					}
					if ob.InAtari(ol) != nb.InAtari(nl) || ob.Liberties(ol) != nb.Liberties(nl) || ob.ChainSize(ol) != nb.ChainSize(nl) {
						fmt.Println("chain differs", game, mv, x, y, ob.InAtari(ol), nb.InAtari(nl), ob.Liberties(ol), nb.Liberties(nl), ob.ChainSize(ol), nb.ChainSize(nl))
						bad++
					}
					// chain membership via NextInChain
					on, nn := 0, 0
					for s := ol; ; {
						on++
						s = ob.NextInChain(s)
						if s == ol {
							break
						}
					}
					for s := nl; ; {
						nn++
						s = nb.NextInChain(s)
						if s == nl || nn > 400 {
							break
						}
					}
					for s := nl; ; {
						if nb.ChainHead(s) != nb.ChainHead(nl) || nb.ColorAt(nb.ChainHead(nl)) != nb.ColorAt(nl) {
							fmt.Println("new head inconsistent", game, mv, x, y)
							bad++
							break
						}
						s = nb.NextInChain(s)
						if s == nl {
							break
						}
					}
					for s := ol; ; {
						if ob.ChainHead(s) != ob.ChainHead(ol) {
							fmt.Println("old head inconsistent", game, mv, x, y)
							bad++
							break
						}
						s = ob.NextInChain(s)
						if s == ol {
							break
						}
					}
					if on != nn {
						fmt.Println("ring differs", game, mv, on, nn)
						bad++
					}
				}
			}
			if mv%7 == 0 {
				if ob.AreaScore() != nb.AreaScore() {
					fmt.Println("AreaScore differs", game, mv)
					bad++
				}
				for c := 1; c <= 2; c++ {
					if fmt.Sprint(ob.UnconditionallyAlive(oldgoban.Color(c))) != fmt.Sprint(nb.UnconditionallyAlive(newgoban.Color(c))) {
						fmt.Println("UA differs", game, mv)
						bad++
					}
				}
				os_, _ := ob.Statuses(nil)
				ns_, _ := nb.Statuses(nil)
				if len(os_) != len(ns_) {
					fmt.Println("Statuses len differs", game, mv)
					bad++
				}
				for p, st := range os_ {
					if int(ns_[newgoban.Point{X: p.X, Y: p.Y}]) != int(st) {
						fmt.Println("Statuses differ", game, mv, p)
						bad++
						break
					}
				}
			}
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					ol := ob.Loc(oldgoban.Point{X: x, Y: y})
					on := ob.Neighbors(ol)
					nn := nb.Neighbors(newgoban.Loc(ol))
					for i := range on {
						if int(on[i]) != int(nn[i]) {
							fmt.Println("Neighbors differ")
							bad++
						}
					}
				}
			}
			if bad > 20 {
				os.Exit(1)
			}
		}
	}
	fmt.Println("done, bad =", bad)
}
