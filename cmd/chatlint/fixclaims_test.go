package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/runner"
)

// repairClaim is one check a cleanup rule declares it repairs (custom.repairs),
// in the tool-call modes (custom.modes; none: both) and the formats
// (custom.formats; none: every one) it acts in.
type repairClaim struct {
	rule           string // pack/rule
	modes, formats []string
}

// packClaims are the repair claims of a built-in cleanup pack, by check id;
// nil for a pack that is not built in (a case's own pack declares what it
// likes).
func packClaims(t *testing.T, pack string) map[string][]repairClaim {
	t.Helper()
	eng, err := (&cmdutil.PackOptions{NoBuiltin: true, NoConfig: true, Packs: []string{"builtin:" + pack}}).Compile(context.Background())
	if err != nil {
		return nil
	}
	out := map[string][]repairClaim{}
	for _, r := range eng.Rules() {
		for _, id := range r.Repairs {
			out[id] = append(out[id], repairClaim{rule: r.Pack + "/" + r.ID, modes: r.Modes, formats: r.Formats})
		}
	}
	return out
}

// claimedBy returns the rule of one of the packs that claims to repair check
// in a record of the given format and tool-call mode, or "".
func claimedBy(claims []map[string][]repairClaim, check, format, mode string) string {
	for _, c := range claims {
		for _, r := range c[check] {
			if (len(r.modes) == 0 || slices.Contains(r.modes, mode)) && (len(r.formats) == 0 || slices.Contains(r.formats, format)) {
				return r.rule
			}
		}
	}
	return ""
}

// recordModes reads a file as check reads it and returns the tool-call mode
// (inline or structured) of each of its documents, by the record id findings
// carry.
func recordModes(t *testing.T, file string) map[string]string {
	t.Helper()
	modes := map[string]string{}
	_, err := runner.ReadInput(context.Background(), runner.Input{Name: file, Path: file}, runner.Options{}, func(j runner.Job) {
		if j.Format == "" || len(j.Records) == 0 {
			return
		}
		lint.Documents(j.Unit, document.Options{}, func(d *document.Document, _ *jsonl.Record) {
			if m := d.Value.Get(ast.StringTerm("mode")); m != nil {
				if s, ok := m.Value.(ast.String); ok {
					modes[d.ID] = string(s)
				}
			}
		})
	})
	if err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	return modes
}

// checkFinding is a finding of check -o json.
type checkFinding struct {
	Rule    string `json:"rule"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	Record  string `json:"record"`
}

// checkFindings runs check on a file and returns its format and findings.
func checkFindings(t *testing.T, file string) (string, []checkFinding) {
	t.Helper()
	stdout, _, _ := chatlint(t, "", "check", "--allow-no-tools", "-o", "json", file)
	var rep struct {
		Summary struct {
			Inputs []struct {
				Format string `json:"format"`
			} `json:"inputs"`
		} `json:"summary"`
		Findings []checkFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("check -o json: %v\n%s", err, stdout)
	}
	format := ""
	if len(rep.Summary.Inputs) > 0 {
		format = rep.Summary.Inputs[0].Format
	}
	return format, rep.Findings
}

// TestFixThenCheckSharedData: on every file of the shared sample data, fix
// with the default packs and then check leave no finding of a check that one
// of the file's default cleanup packs claims to repair (custom.repairs, in
// the file's format and the record's tool-call mode: custom.formats and
// custom.modes) — the claims chatlint rules
// shows as FIXED BY, not a list of this test's own.
func TestFixThenCheckSharedData(t *testing.T) {
	needSharedData(t)
	root := sharedData
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no .jsonl or .json files under ../shared/data")
	}
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), filepath.Base(file))
			_, stderr, code := chatlint(t, "", "fix", "-o", out, file)
			if code == cmdutil.ExitError {
				// A file fix refuses (no known format, a format fix does not
				// rewrite) is not written; that is its own test's business.
				if _, err := os.Stat(out); err == nil {
					t.Fatalf("fix exited %d but wrote %s:\n%s", code, out, stderr)
				}
				t.Skipf("not fixed: %s", strings.TrimSpace(stderr))
			}
			format, findings := checkFindings(t, out)
			var claims []map[string][]repairClaim
			for _, ref := range builtin.CleanupRefs(document.Format(format), nil) {
				claims = append(claims, packClaims(t, strings.TrimPrefix(ref, "builtin:")))
			}
			if len(claims) == 0 {
				t.Skipf("format %q has no default cleanup pack", format)
			}
			modes := recordModes(t, out)
			for _, f := range findings {
				if by := claimedBy(claims, f.Rule, format, modes[f.Record]); by != "" {
					t.Errorf("after fix, check reports %s at line %d (%s mode), which %s claims to repair: %s", f.Rule, f.Line, modes[f.Record], by, f.Message)
				}
			}
		})
	}
}
