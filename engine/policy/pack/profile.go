package pack

import "github.com/chatlint/chatlint/engine/document"

// ProfileOf is the profile a document is checked under: its own, or the
// default one.
func ProfileOf(p string) string {
	if p == "" {
		return document.DefaultProfile
	}
	return p
}
