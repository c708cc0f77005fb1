// Package setup turns a run's configuration (.chatlint.yaml) and the
// settings of its command line into packs, an engine and the run's
// settings: the one composition root that the CLI's commands
// (cmd/chatlint/internal/cmdutil) and chatlint-beam share, so that both read
// a config file the same way. A flag given on the command line wins over the
// file; the file wins over the default.
package setup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/gate"
	"github.com/chatlint/chatlint/engine/policy"
)

// LoadConfig reads the run's config file: path, else .chatlint.yaml in the
// current folder or its nearest parent, named relative to the current
// folder. nil, nil when noConfig is set or there is none.
func LoadConfig(path string, noConfig bool) (*config.Config, string, error) {
	if noConfig {
		return nil, "", nil
	}
	if path == "" {
		found, err := config.Find(".")
		if wd, werr := os.Getwd(); werr == nil && found != "" { // name it the way the user would
			if rel, rerr := filepath.Rel(wd, found); rerr == nil {
				found = rel
			}
		}
		var unsafe *config.UnsafeError
		if errors.As(err, &unsafe) {
			unsafe.Path = found
		}
		if err != nil || found == "" {
			return nil, "", err
		}
		path = found
	}
	cfg, err := config.Load(path)
	return cfg, path, err
}

// Packs loads the packs of a run without compiling them: the config's packs
// (or, when it names none, the built-in check packs), then each of refs
// (--pack). noBuiltin drops the built-in packs, the config's included; one
// named in refs is still loaded.
func Packs(cfg *config.Config, refs []string, noBuiltin bool) (*config.PackLoader, error) {
	l := config.NewPackLoader()
	var fromConfig []string
	if cfg != nil && cfg.Packs != nil {
		for _, r := range cfg.Packs {
			fromConfig = append(fromConfig, cfg.Resolve(r))
		}
	} else if !noBuiltin {
		if err := l.AddBuiltins(); err != nil {
			return nil, err
		}
	}
	for i, r := range append(fromConfig, refs...) {
		if noBuiltin && i < len(fromConfig) && strings.HasPrefix(r, "builtin:") {
			continue
		}
		if err := l.Add(r); err != nil {
			return nil, fmt.Errorf("--pack: %w", err)
		}
	}
	return l, nil
}

// RuleTimeout is the time limit of one document's evaluation: the flag's
// when given (above 0), else the config's rule_timeout, else
// policy.DefaultRuleTimeout.
func RuleTimeout(flag time.Duration, cfg *config.Config) time.Duration {
	switch {
	case flag > 0:
		return flag
	case cfg != nil && cfg.RuleTimeout > 0:
		return cfg.RuleTimeout
	}
	return policy.DefaultRuleTimeout
}

// ParseRuleTimeout reads a --rule-timeout value: a positive duration.
// 0 and negative values are refused rather than read as "the default" or
// "no limit": there is no unlimited setting, and a long limit (1h) is what
// a user who wants none asks for. check and chatlint-beam both read the
// flag with it.
func ParseRuleTimeout(s string) (time.Duration, error) {
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, errors.New("want a duration such as 5s or 500ms")
	}
	if v <= 0 {
		return 0, errors.New("want a positive duration such as 5s or 1h (there is no unlimited setting)")
	}
	return v, nil
}

// ConfigError is a config file whose content does not fit the packs (a rule
// it names that no pack has).
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return "config: " + e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Engine compiles packs with the options every run shares (rules turned
// off, the time limit as RuleTimeout resolves it) and checks the config's
// rule names against the packs' rules. A pack that does not compile is a
// *policy.CompileError, a config naming an unknown rule a *ConfigError.
func Engine(ctx context.Context, packs []*policy.Pack, cfg *config.Config, disable []string, timeout time.Duration) (*policy.Engine, error) {
	// The built-in Rego is compiled when a document first needs it: a run
	// the default profile makes over chat never does (Options.LazyRego).
	eng, err := policy.Compile(ctx, packs, policy.Options{Disable: disable, RecordTimeout: RuleTimeout(timeout, cfg), LazyRego: true})
	if err != nil {
		return nil, err
	}
	if err := gate.CheckRules(cfg, eng); err != nil {
		return nil, &ConfigError{err}
	}
	return eng, nil
}
