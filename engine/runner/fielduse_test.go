package runner_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/internal/testinputs"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestPrunedDocumentsSameFindings: leaving out the members no active rule
// reads (policy.Engine.Fields) never changes a finding. Every built-in pack
// alone and the check packs together, every fixture pack and the bench
// packs, under each profile they declare, over every fixture file and the
// shared sample data (chat and contract records, proxy-log sessions): the
// findings with whole documents and with pruned ones must be identical.
func TestPrunedDocumentsSameFindings(t *testing.T) {
	t.Parallel() // a minute each on one core (Workers: 1): side by side on two
	fixtures := testinputs.Files(t, false)
	inputs := testinputs.Files(t, !testing.Short())
	if n := proxyLogFiles(t, fixtures); n < 10 { // sessions are pruned too: the comparison must see them
		t.Fatalf("%d proxy-log fixture files", n)
	}
	sets := testinputs.PackSets(t)
	for name, p := range probePacks() {
		sets[name] = []*policy.Pack{p}
	}
	pruned := 0
	for _, name := range sweep.Keys(sets, sweepSets, "built-in check packs") {
		packs := sets[name]
		eng, err := policy.Compile(context.Background(), packs, policy.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !eng.Fields().All() {
			pruned++
		}
		profiles := []string{document.DefaultProfile}
		for _, p := range eng.Profiles() {
			profiles = append(profiles, p.Name)
		}
		in := inputs
		if strings.HasPrefix(name, "probe ") {
			in = fixtures // a finding per message or call: the fixtures have every shape
		}
		for _, profile := range sampleProfiles(profiles) {
			whole := findings(t, eng, in, document.Options{Profile: profile, Fields: document.AllFields()})
			got := findings(t, eng, in, document.Options{Profile: profile})
			if diff := cmp.Diff(whole, got); diff != "" {
				t.Errorf("%s, profile %s: findings (-whole documents +pruned):\n%s", name, profile, diff)
			}
			if len(whole) == 0 && !strings.HasPrefix(name, "probe ") {
				t.Errorf("%s, profile %s: no finding at all: the comparison proves nothing", name, profile)
			}
		}
	}
	if pruned < 3 && sweep.Full() {
		t.Errorf("only %d of %d pack sets prune anything", pruned, len(sets))
	}
}

// The default run compares a sample of the pack sets and profiles (the
// `exhaustive` build tag compares them all): every set and profile is a
// whole run over the inputs.
const sweepSets = 8

// sampleProfiles keeps the default profile and one other in the default run.
func sampleProfiles(profiles []string) []string {
	if len(profiles) <= 1 {
		return profiles
	}
	return append([]string{profiles[0]}, sweep.Strings(profiles[1:], 1)...)
}

func findings(t *testing.T, eng *policy.Engine, files []string, opts document.Options) []finding.Finding {
	t.Helper()
	r := &runner.Runner{Engine: eng, Opts: runner.Options{Workers: 1, Document: opts}}
	var in []runner.Input
	for _, f := range files {
		in = append(in, runner.Input{Name: f, Path: f})
	}
	var out []finding.Finding
	_, errs := r.Run(context.Background(), in, func(f finding.Finding) { out = append(out, f) })
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	slices.SortFunc(out, finding.Compare)
	return out
}

// proxyLogFiles counts the files whose first record is a proxy-log line.
func proxyLogFiles(t *testing.T, files []string) int {
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		v, err := astjson.Decode([]byte(line))
		if o, ok := v.(ast.Object); err == nil && ok {
			if format, _ := document.Detect(o); format == document.ProxyLog {
				n++
			}
		}
	}
	return n
}

// probePacks are one pack per member of the document, each with one rule
// that reports that member's value (top-level, of every message, of every
// tool call): a rule that reads only that member, so that pruning leaves
// out everything else. A member the analysis wrongly left out changes the
// rule's findings. Pairs of them, drawn with a fixed seed, check rules that
// prune differently together (one reading the lookup keeps the calls whole).
func probePacks() map[string]*policy.Pack {
	rules := map[string]string{}
	for _, m := range []string{"format", "file", "line", "id", "mode", "profile", "raw", "tools", "entries", "lookup", "messages", "model"} {
		rules[m] = `deny contains {"rule": ID, "msg": sprintf("%v", [input.` + m + `])} if true`
	}
	for _, m := range []string{"index", "role", "text", "has_content", "tool_calls", "turn", "line", "path", "raw", "tool_call_id", "stop_reason", "is_error", "lines"} {
		rules["messages[*]."+m] = `deny contains f if {
	some i, m in input.messages
	f := {"rule": ID, "msg": sprintf("%v", [m.` + m + `]), "message_index": i}
}`
	}
	for _, m := range []string{"index", "id", "name", "arguments", "has_input", "path", "line", "parse_error", "free_form"} {
		rules["messages[*].tool_calls[*]."+m] = `deny contains f if {
	some i, m in input.messages
	some j, c in m.tool_calls
	f := {"rule": ID, "msg": sprintf("%v", [c.` + m + `]), "message_index": i, "tool_call_index": j}
}`
	}
	file := func(id, rule string) policy.File {
		src := "package chatlint.probe\n\n# METADATA\n# title: " + id + "\n# description: reports a member.\n# custom:\n#   id: " + id +
			"\n#   severity: info\n" + strings.ReplaceAll(rule, "ID", strconv.Quote(id)) + "\n"
		return policy.File{Name: id + ".rego", Source: []byte(src)}
	}
	out := map[string]*policy.Pack{}
	var names []string
	for name, r := range rules {
		out["probe "+name] = &policy.Pack{Name: "probe", Rego: []policy.File{file("probe", r)}}
		names = append(names, name)
	}
	sort.Strings(names)
	rnd := rand.New(rand.NewPCG(25, 2))
	for range 12 {
		a, b := names[rnd.IntN(len(names))], names[rnd.IntN(len(names))]
		if a != b {
			out["probe "+a+" + "+b] = &policy.Pack{Name: "probe", Rego: []policy.File{file("probe-a", rules[a]), file("probe-b", rules[b])}}
		}
	}
	return out
}
