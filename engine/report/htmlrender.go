package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"io"
	"strings"
	"sync"
)

// The page's template, style and script are embedded in the binary: the
// report is one file that needs no network and no other file.
//
//go:embed html/report.html.tmpl html/report.css html/report.js
var htmlAssets embed.FS

// htmlTemplate is parsed on first use, not when the binary starts: parsing
// it was the costliest init of chatlint's own packages, paid by every run,
// and most runs write no HTML.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
		"count":     formatCount,
		"firstLine": func(s string) string { first, _, _ := strings.Cut(s, "\n"); return first },
		"noun": func(n int, word string) string {
			if n == 1 {
				return word
			}
			return word + "s"
		},
	}).ParseFS(htmlAssets, "html/report.html.tmpl"))
})

var (
	htmlCSS    = mustAsset("html/report.css")
	htmlScript = mustAsset("html/report.js")
	// htmlScriptHash lets the page's Content-Security-Policy allow its own
	// script and nothing else: no other script runs, nothing is fetched.
	htmlScriptHash = func() string {
		sum := sha256.Sum256([]byte(htmlScript))
		return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	}()
)

func mustAsset(name string) string {
	b, err := htmlAssets.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// htmlDoc is the template's data: the page and its fixed assets.
type htmlDoc struct {
	htmlPage
	CSS    template.CSS
	Script template.JS
	CSP    string
}

func renderHTML(w io.Writer, p htmlPage) error {
	csp := "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '" + htmlScriptHash + "'; base-uri 'none'; form-action 'none'"
	return htmlTemplate().Execute(w, htmlDoc{htmlPage: p, CSS: template.CSS(htmlCSS), Script: template.JS(htmlScript), CSP: csp})
}
