package cmdutil

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	opaversion "github.com/open-policy-agent/opa/v1/version"
)

// BuildInfo is what `chatlint version` prints.
type BuildInfo struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Dirty   bool   `json:"dirty,omitempty"`
	OPA     string `json:"opa"`
	Go      string `json:"go"`
}

// ReadBuildInfo reads the module version `go install …@vX` stamps and the
// VCS revision `go build` stamps in a checkout; neither needs ldflags.
func ReadBuildInfo() BuildInfo {
	b := BuildInfo{Version: "(devel)", OPA: opaversion.Version, Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := info.Main.Version; v != "" {
		b.Version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Dirty = s.Value == "true"
		}
	}
	if b.Commit == "" {
		b.Commit = pseudoVersionCommit(b.Version)
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/open-policy-agent/opa" {
			b.OPA = d.Version
		}
	}
	return b
}

// Version is chatlint's version as reports name it.
func Version() string { return ReadBuildInfo().Version }

func (b BuildInfo) String() string {
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	if b.Dirty {
		commit += " (modified)"
	}
	return fmt.Sprintf("chatlint %s\ncommit: %s\nopa: %s\ngo: %s\n", b.Version, commit, b.OPA, b.Go)
}

// pseudoVersionCommit returns the commit prefix a Go pseudo-version ends
// with (v0.0.0-20260101120000-abcdef123456), which is all `go install
// …@commit` stamps.
func pseudoVersionCommit(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 || strings.Count(v, "-") < 2 {
		return ""
	}
	for _, c := range v[i+1:] {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return ""
		}
	}
	return v[i+1:]
}
