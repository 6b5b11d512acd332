package http

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// freshDecode is the strict decode with a new json.Decoder for every
// message, the contract wsDecoder keeps while it reuses one.
func freshDecode(data []byte, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil && !dec.More()
}

// decodeAll decodes each message of msgs into a new T, with decode, and
// returns what it accepted and the values.
func decodeAll[T any](msgs [][]byte, decode func([]byte, any) bool) ([]bool, []T) {
	oks := make([]bool, len(msgs))
	vs := make([]T, len(msgs))
	for i, m := range msgs {
		oks[i] = decode(m, &vs[i])
	}
	return oks, vs
}

// checkSameDecode fails t unless one wsDecoder, used for all of msgs in
// turn, accepts and decodes each as a fresh decoder does. The values are
// compared after the last message, so that one that kept a reference into
// the decoder's buffer would show.
func checkSameDecode[T any](t *testing.T, msgs [][]byte) {
	t.Helper()
	wantOK, want := decodeAll[T](msgs, freshDecode)
	var d wsDecoder
	gotOK, got := decodeAll[T](msgs, d.decode)
	for i := range msgs {
		if gotOK[i] != wantOK[i] || (wantOK[i] && !reflect.DeepEqual(got[i], want[i])) {
			t.Errorf("message %d %q: reused decoder %v %+v, fresh %v %+v", i, msgs[i], gotOK[i], got[i], wantOK[i], want[i])
		}
	}
}

func TestWSDecoder(t *testing.T) {
	tests := []struct {
		name string
		msgs []string
		ok   []bool
	}{
		{"moves", []string{`{"type":"move","id":"1","seq":1,"x":3,"y":3}`, `{"type":"move","id":"2","seq":3,"x":15,"y":16}`}, []bool{true, true}},
		{"whitespace around", []string{" {\"type\":\"pass\"}\n\t", `{"type":"pass"}`}, []bool{true, true}},
		{"unknown field, then a good one", []string{`{"type":"move","colour":"red"}`, `{"type":"pass"}`}, []bool{false, true}},
		{"two values, then a good one", []string{`{"type":"pass"} {"type":"resign"}`, `{"type":"resign"}`}, []bool{false, true}},
		{"a value and garbage", []string{`{"type":"pass"} x`, `{"type":"pass"}`}, []bool{false, true}},
		{"cut short, then a good one", []string{`{"type":"pass"`, `{"type":"pass"}`}, []bool{false, true}},
		{"empty", []string{``, ` `, `{}`}, []bool{false, false, true}},
		{"wrong type", []string{`{"seq":"1"}`, `{"seq":1.5}`, `{"seq":1}`}, []bool{false, false, true}},
		{"not an object", []string{`[]`, `1`, `"move"`, `null`}, []bool{false, false, false, true}},
		{"case of the keys", []string{`{"TYPE":"pass","Id":"a"}`}, []bool{true}},
		{"points", []string{`{"type":"place-handicap","points":[[3,3],[15,15]]}`, `{"points":[[3]]}`}, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := make([][]byte, len(tt.msgs))
			for i, m := range tt.msgs {
				msgs[i] = []byte(m)
			}
			checkSameDecode[wsCommand](t, msgs)
			var d wsDecoder
			ok, _ := decodeAll[wsCommand](msgs, d.decode)
			if !reflect.DeepEqual(ok, tt.ok) {
				t.Errorf("accepted %v, want %v", ok, tt.ok)
			}
		})
	}
}

// TestWSDecoderReview: a review's path is raw JSON, which must not point
// into the decoder's buffer once the next message is read.
func TestWSDecoderReview(t *testing.T) {
	checkSameDecode[reviewCommand](t, [][]byte{
		[]byte(`{"type":"nav","id":"1","path":[0,1,2,3,4,5,6,7,8,9]}`),
		[]byte(`{"type":"nav","id":"2","path":[9,9,9,9,9,9,9,9,9,9]}`),
		[]byte(`{"type":"chat","text":"hallo"}`),
	})
}

// FuzzWSDecoder: messages separated by NUL bytes, decoded by one reused
// decoder, are accepted and decoded as by a fresh decoder for each.
func FuzzWSDecoder(f *testing.F) {
	f.Add("{\"type\":\"move\",\"seq\":1,\"x\":3,\"y\":3}\x00{\"type\":\"pass\"}")
	f.Add("{\"type\":\"move\"} {}\x00{\"type\":\"pass\"}")
	f.Add("{\"x\":1e2}\x00 \x00{\"text\":\"\\u00e4\\ud800\"}")
	f.Add("{\"type\":\"nav\",\"path\":[1,2]}\x00{\"path\":[3]}")
	f.Fuzz(func(t *testing.T, s string) {
		var msgs [][]byte
		for _, m := range strings.Split(s, "\x00") {
			msgs = append(msgs, []byte(m))
		}
		checkSameDecode[wsCommand](t, msgs)
		checkSameDecode[reviewCommand](t, msgs)
	})
}
