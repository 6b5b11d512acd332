package http

import (
	"context"
	nethttp "net/http"
)

// routeSlot is where the router notes the pattern of the route that served
// a request, for Config.OnRequest; the request log's middleware puts it in
// the context, since the router sees only a copy of the request.
type routeSlot struct{ pattern string }

// withRouteSlot returns ctx with an empty routeSlot.
func withRouteSlot(ctx context.Context) (context.Context, *routeSlot) {
	slot := &routeSlot{}
	return context.WithValue(ctx, ctxRoute, slot), slot
}

// noteRoute records the pattern the mux matched for r, if any.
func noteRoute(r *nethttp.Request) {
	if slot, ok := r.Context().Value(ctxRoute).(*routeSlot); ok {
		slot.pattern = r.Pattern
	}
}

// WebSockets returns the number of open game WebSockets.
func (s *Server) WebSockets() int { return s.hub.count() }
