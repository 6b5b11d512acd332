package http

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	nethttp "net/http"
	"path"
	"sort"
	"strings"
	"time"
)

//go:embed static
var staticFS embed.FS

// asset is one embedded static file.
type asset struct {
	data      []byte
	ctype     string
	etag      string
	immutable bool // served under its content-hashed name
}

// assets serves the embedded static files twice: under a content-hashed
// name ("app.3f9a2c01d4.css") with a year-long immutable cache lifetime, and
// under the plain name with revalidation, for tools and bookmarks. Pages
// refer to the hashed names; JavaScript modules import plain names, which
// the import map in the layout redirects to the hashed ones.
type assets struct {
	files  map[string]*asset // URL path below /static/ → file
	hashed map[string]string // plain name → hashed name

	importMapJSON string // body of the import map script, fixed at load
	// csp is the Content-Security-Policy of every page; it allows the
	// import map, the one inline script, by its hash.
	csp string
}

func loadAssets() (*assets, error) {
	a := &assets{files: map[string]*asset{}, hashed: map[string]string{}}
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(p, "static/")
		sum := sha256.Sum256(data)
		h := hex.EncodeToString(sum[:5])
		ext := path.Ext(name)
		hashedName := strings.TrimSuffix(name, ext) + "." + h + ext
		ctype := mime.TypeByExtension(ext)
		if ext == ".js" {
			ctype = "text/javascript; charset=utf-8"
		}
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		etag := `"` + h + `"`
		a.files[name] = &asset{data: data, ctype: ctype, etag: etag}
		a.files[hashedName] = &asset{data: data, ctype: ctype, etag: etag, immutable: true}
		a.hashed[name] = hashedName
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("http: static assets: %w", err)
	}
	a.importMapJSON = a.buildImportMap()
	sum := sha256.Sum256([]byte(a.importMapJSON))
	a.csp = "default-src 'self'; script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; " +
		"form-action 'self'; frame-ancestors 'none'"
	return a, nil
}

// url returns the hashed URL of a static file, or an error for an unknown
// name so that a typo in a template fails the page (and the tests).
func (a *assets) url(name string) (string, error) {
	h, ok := a.hashed[name]
	if !ok {
		return "", fmt.Errorf("unknown static asset %q", name)
	}
	return "/static/" + h, nil
}

// importMap returns the <script type="importmap"> element that maps every
// module's plain URL to its hashed URL.
func (a *assets) importMap() template.HTML {
	return template.HTML(`<script type="importmap">` + a.importMapJSON + `</script>`)
}

func (a *assets) buildImportMap() string {
	imports := map[string]string{}
	var names []string
	for name := range a.hashed {
		if strings.HasSuffix(name, ".js") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		imports["/static/"+name] = "/static/" + a.hashed[name]
	}
	// json.Marshal escapes <, > and &, so the output cannot end the script
	// element early.
	data, _ := json.Marshal(map[string]any{"imports": imports})
	return string(data)
}

func (a *assets) serve(w nethttp.ResponseWriter, r *nethttp.Request) {
	f, ok := a.files[r.PathValue("file")]
	if !ok {
		nethttp.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("ETag", f.etag)
	if f.immutable {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	nethttp.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.data))
}
