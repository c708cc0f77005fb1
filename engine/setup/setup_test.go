package setup

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/policy"
)

func parse(t *testing.T, src string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("team/.chatlint.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestSettingsFromConfig: a key of the file applies where its flag was not
// given; a given flag wins.
func TestSettingsFromConfig(t *testing.T) {
	cfg := parse(t, "fail_on: warning\nformat: chat\ntool_calls: inline\nallow_no_tools: true\nprofile: export\nmax_line_size: 1MiB\n")
	s := Settings{FailOn: "error", Profile: "default"}
	s.FromConfig(cfg, func(flag string) bool { return flag == "profile" })
	want := Settings{FailOn: "warning", Format: "chat", ToolCalls: "inline", AllowNoTools: true, Profile: "default", MaxLineSize: "1MiB"}
	if d := cmp.Diff(want, s); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
	s = Settings{Format: "chat"}
	s.FromConfig(nil, func(string) bool { return false })
	if s != (Settings{Format: "chat"}) {
		t.Errorf("no config changed %+v", s)
	}
}

func TestRuleTimeout(t *testing.T) {
	cfg := parse(t, "rule_timeout: 2s\n")
	for _, c := range []struct {
		flag time.Duration
		cfg  *config.Config
		want time.Duration
	}{
		{0, nil, policy.DefaultRuleTimeout},
		{0, cfg, 2 * time.Second},
		{time.Second, cfg, time.Second},
	} {
		if got := RuleTimeout(c.flag, c.cfg); got != c.want {
			t.Errorf("RuleTimeout(%v, %v) = %v, want %v", c.flag, c.cfg != nil, got, c.want)
		}
	}
}

// TestPacks: the config's packs replace the built-in ones; --no-builtin
// drops the config's built-in packs but not one named on the command line.
func TestPacks(t *testing.T) {
	names := func(l *config.PackLoader) []string {
		var out []string
		for _, p := range l.Packs() {
			out = append(out, p.Name)
		}
		return out
	}
	cfg := parse(t, "packs: [builtin:finetune]\n")
	l, err := Packs(cfg, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"finetune"}, names(l)); d != "" {
		t.Errorf("config packs (-want +got):\n%s", d)
	}
	if l, err = Packs(cfg, []string{"builtin:integrity"}, true); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"integrity"}, names(l)); d != "" {
		t.Errorf("--no-builtin with a config (-want +got):\n%s", d)
	}
	if _, err := Packs(nil, []string{"no/such/folder"}, true); err == nil {
		t.Error("a missing pack loads")
	}
}
