package pipeline

import (
	"fmt"
	"os"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/gate"
)

// Settings is a team's .chatlint.yaml, read where the job is launched and
// carried in the job's graph, so workers apply the same rule levels,
// per-file overrides and suppressions `chatlint check` does. A baseline is
// not part of it: matching one uses each entry up once, a count a
// distributed job cannot share between workers.
type Settings struct {
	// Path names the file for messages and resolves override globs.
	Path string
	// Source is the file's content; empty means no config.
	Source []byte
}

// LoadSettings reads and checks a config file (path "" means none).
func LoadSettings(path string) (Settings, error) {
	if path == "" {
		return Settings{}, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return Settings{}, fmt.Errorf("config: %w", err)
	}
	s := Settings{Path: path, Source: src}
	if _, err := s.Config(); err != nil {
		return Settings{}, fmt.Errorf("config: %w", err)
	}
	return s, nil
}

// Config parses the settings; nil when there are none.
func (s Settings) Config() (*config.Config, error) {
	if len(s.Source) == 0 {
		return nil, nil
	}
	return config.Parse(s.Path, s.Source)
}

// gate returns the gate of one DoFn instance, or nil without settings. A
// gate keeps per-file state and is not shared between goroutines.
func (s Settings) gate() (*gate.Gate, error) {
	cfg, err := s.Config()
	if err != nil || cfg == nil {
		return nil, err
	}
	return gate.New(cfg, gate.Options{})
}

// pass lets a finding through the gate; without one every finding passes.
func pass(g *gate.Gate, f finding.Finding) (finding.Finding, bool) {
	if g == nil {
		return f, true
	}
	return g.Pass(f)
}
