package http

import nethttp "net/http"

// The master games of Pfaundler's §20 (docs/MASTERGAMES.md). The book's two
// games are listed with what the book says of them and why neither can be
// replayed: the scanned text has lost their move tables. A game whose moves
// are recovered would get a replay page here, checked by a test that plays
// every move with goban.

// masterGame is one game of the list; its texts are the catalogue entries
// masters.<Key>.title, .about and .why.
type masterGame struct {
	Key string
}

// masterGames are the games of §20 in the book's order.
var masterGames = []masterGame{{Key: "yasui1835"}, {Key: "murase1880"}}

func (s *Server) handleMasters(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	data.Masters = masterGames
	s.render(w, r, nethttp.StatusOK, "masters", data)
}

func init() { pageNames = append(pageNames, "masters") }
