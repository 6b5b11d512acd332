package http

import (
	"encoding/json"
	"errors"
	"io"
	nethttp "net/http"
	"strings"

	"tengen"
)

// codeStatus maps application error codes to HTTP status codes. It is the
// only place where that mapping lives.
var codeStatus = map[string]int{
	tengen.ECONFLICT:     nethttp.StatusConflict,
	tengen.EFORBIDDEN:    nethttp.StatusForbidden,
	tengen.EINTERNAL:     nethttp.StatusInternalServerError,
	tengen.EINVALID:      nethttp.StatusBadRequest,
	tengen.ENOTFOUND:     nethttp.StatusNotFound,
	tengen.ERATELIMIT:    nethttp.StatusTooManyRequests,
	tengen.EUNAUTHORIZED: nethttp.StatusUnauthorized,
	// The game moved between instances twice during one command: rare,
	// and worth a retry.
	tengen.ENOTOWNER: nethttp.StatusServiceUnavailable,
}

// ErrorStatusCode returns the HTTP status for an application error code.
func ErrorStatusCode(code string) int {
	if s, ok := codeStatus[code]; ok {
		return s
	}
	return nethttp.StatusInternalServerError
}

// statusClientGone is the status logged for a request whose client went
// away before the answer.
const statusClientGone = 499

// errorResponse is the JSON body of every API error.
type errorResponse struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"requestId,omitempty"`
}

// isAPI reports whether r gets JSON rather than HTML.
func isAPI(r *nethttp.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/")
}

// error reports err to the client: JSON for the API, an HTML page otherwise.
// Internal errors are logged with their details and shown without them;
// refusals (403) are logged too, since they may be probes or client bugs.
func (s *Server) error(w nethttp.ResponseWriter, r *nethttp.Request, err error) {
	code := tengen.ErrorCode(err)
	status := ErrorStatusCode(code)
	id := requestID(r.Context())
	if code == tengen.EINTERNAL && r.Context().Err() != nil {
		// The client went away (its context ends with the connection), so
		// the failure is the client's: nothing to log as an error, and
		// nobody reads the answer. 499 is the usual status for this in
		// request logs (nginx's "client closed request").
		s.log.Info("client gone", "id", id, "method", r.Method, "path", r.URL.Path, "err", err)
		w.WriteHeader(statusClientGone)
		return
	}
	switch code {
	case tengen.EINTERNAL:
		s.log.Error("internal error", "id", id, "method", r.Method, "path", r.URL.Path, "err", err)
	case tengen.EFORBIDDEN:
		var uid int64
		if u := currentUser(r.Context()); u != nil {
			uid = u.ID
		}
		s.log.Warn("refused", "id", id, "method", r.Method, "path", r.URL.Path, "user", uid, "reason", tengen.ErrorMessage(err))
	}
	if isAPI(r) {
		writeJSON(w, status, errorResponse{errorBody{Code: code, Message: tengen.ErrorMessage(err), RequestID: id}})
		return
	}
	s.renderError(w, r, status, code, err)
}

// writeJSON writes v as the JSON response body with the given status.
func writeJSON(w nethttp.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

// readJSON decodes the request body into v, refusing unknown fields,
// trailing data, oversized bodies and other content types with EINVALID.
func readJSON(w nethttp.ResponseWriter, r *nethttp.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return tengen.Errorf(tengen.EINVALID, "Content-Type must be application/json.")
	}
	dec := json.NewDecoder(nethttp.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *nethttp.MaxBytesError
		if errors.As(err, &tooBig) {
			return errBodyTooLarge()
		}
		return tengen.Errorf(tengen.EINVALID, "Malformed JSON: %s.", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return tengen.Errorf(tengen.EINVALID, "Malformed JSON: data after the value.")
	}
	return nil
}
