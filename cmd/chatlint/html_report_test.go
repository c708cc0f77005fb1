package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/internal/browser/browsertest"
)

// TestHTMLReportInBrowser is the "done when": check writes an HTML
// report of the shipped sample beside a JSON one in the same run, and the
// page, opened offline in headless Chromium, shows the JSON report's
// numbers, draws its charts, links each bar to its rule, filters, and
// neither logs an error nor asks the network for anything.
func TestHTMLReportInBrowser(t *testing.T) {
	dir := t.TempDir()
	page, jsonFile := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.json")
	_, errOut, code := chatlint(t, "", "check", "-o", "html="+page, "-o", "json="+jsonFile, "-o", "text="+filepath.Join(dir, "out.txt"), filepath.Join(repo, "fixtures/sample"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the sample has defects): %s", code, errOut)
	}
	var rep struct {
		Summary  finding.Summary
		Findings []finding.Finding
	}
	readJSON(t, jsonFile, &rep)
	if len(rep.Findings) == 0 {
		t.Fatal("the sample gave no findings; the test would prove nothing")
	}

	s := browsertest.Open(t, page, 30*time.Second)
	eval := func(expr string) string { t.Helper(); return browsertest.Eval[string](t, s, expr) }

	// The summary's numbers are the JSON report's.
	cards := map[string]string{}
	for _, id := range []string{"files", "records", "errors", "warnings", "infos"} {
		cards[id] = eval(fmt.Sprintf(`document.getElementById("count-%s").textContent`, id))
	}
	sum := rep.Summary
	want := map[string]string{"files": fmt.Sprint(sum.Files), "records": fmt.Sprint(sum.Records),
		"errors": fmt.Sprint(sum.Errors), "warnings": fmt.Sprint(sum.Warnings), "infos": fmt.Sprint(sum.Infos)}
	if diff := cmp.Diff(want, cards); diff != "" {
		t.Errorf("summary cards (-json +page):\n%s", diff)
	}
	if got := eval(`document.getElementById("verdict").textContent`); !strings.HasPrefix(got, "FAIL") {
		t.Errorf("verdict %q; the run exits 1", got)
	}
	if got := eval(`document.querySelector("#formats tbody").innerText`); got != fmt.Sprintf("chat\t%d\t%d", sum.Files, sum.Records) {
		t.Errorf("records per format %q", got)
	}

	// One bar per rule, with the JSON report's count, drawn, and linked to
	// the rule's explanation on the page.
	perRule := map[string]int{}
	for _, f := range rep.Findings {
		perRule[f.Rule]++
	}
	var wantBars []string
	for r, n := range perRule {
		wantBars = append(wantBars, fmt.Sprintf("%s %d #rule-%s true", r, n, r))
	}
	sort.Strings(wantBars)
	bars := browsertest.Eval[[]string](t, s, `[...document.querySelectorAll("#per-rule svg a")].map(a =>
		a.querySelector(".label").textContent + " " + a.querySelector(".count").textContent + " " + a.getAttribute("href") + " " +
		(a.querySelector("rect").getBBox().width > 0 && !!document.querySelector(a.getAttribute("href") + " .desc")))`)
	sort.Strings(bars)
	if diff := cmp.Diff(wantBars, bars); diff != "" {
		t.Errorf("per-rule bars (-json +page):\n%s", diff)
	}
	if got := eval(`document.querySelector("#per-file svg .count").textContent`); got != fmt.Sprint(len(rep.Findings)) {
		t.Errorf("per-file bar %s; want %d", got, len(rep.Findings))
	}

	// The table holds every finding (the sample is small), and filters.
	if got := eval(`document.getElementById("match-count").textContent`); got != fmt.Sprintf("%d of %d shown findings match", len(rep.Findings), len(rep.Findings)) {
		t.Errorf("match count %q", got)
	}
	first := rep.Findings[0]
	eval(fmt.Sprintf(`(() => { const e = document.getElementById("filter-rule"); e.value = %q; e.dispatchEvent(new Event("change")); return ""; })()`, first.Rule))
	rows := browsertest.Eval[[]string](t, s, `[...document.querySelectorAll("#findings-table tbody tr")].map(r => [...r.cells].map(c => c.textContent).join(" | "))`)
	wantRow := fmt.Sprintf("%s:%d | %s | %s | %s | %s", first.File, first.Line, first.Severity, first.Rule, first.Message, first.Path)
	if len(rows) != perRule[first.Rule] || rows[0] != wantRow {
		t.Errorf("filtered on %s: rows %q; want %d rows, the first %q", first.Rule, rows, perRule[first.Rule], wantRow)
	}
	browsertest.Clean(t, s)
}
