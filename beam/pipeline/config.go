package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/setup"
)

// Config is everything a worker needs to check records: the packs' source
// files themselves (read once where the pipeline is built, so workers need
// no access to the launching machine's disk) and the options of `check`.
// It is a field of the DoFns, so it travels inside the job's serialized
// graph; every field is exported for that reason.
type Config struct {
	Packs         []*policy.Pack
	Disable       []string
	RecordTimeout time.Duration
	// Format forces the input format; empty means detect it per file.
	Format    string
	ToolCalls string
	// MaxLineSize bounds a line, as check's --max-line-size; 0 is the default.
	MaxLineSize int
	// MaxValues bounds the values one record builds, as check's
	// --max-record-values; 0 is the default.
	MaxValues int
	// Profile is the rule profile, as check's --profile; empty is the default.
	Profile string
	// Model is the model the data is for, as check's --model; empty is the
	// packs' model tables' default.
	Model string
	// Settings are the team's .chatlint.yaml (levels, overrides, suppressions).
	Settings Settings
}

// LoadPacks reads the packs the way `chatlint check` does (setup.Packs):
// the config's packs, or every built-in check pack unless noBuiltin is set,
// then each source, "builtin:NAME", a pack folder or an OPA bundle, each
// pack once. A source naming a built-in pack check already loads adds
// nothing.
func LoadPacks(cfg *config.Config, sources []string, noBuiltin bool) ([]*policy.Pack, error) {
	l, err := setup.Packs(cfg, sources, noBuiltin)
	if err != nil {
		return nil, err
	}
	return withoutTests(l.Packs()), nil
}

// withoutTests drops the packs' *_test.rego files: they are for `chatlint
// test`, never evaluated, and need not travel with the job.
func withoutTests(packs []*policy.Pack) []*policy.Pack {
	for i, p := range packs {
		cp := *p
		cp.Tests = nil
		packs[i] = &cp
	}
	return packs
}

// Validate checks the options and compiles the packs, so that a mistake is
// reported where the job is launched rather than by every worker.
func (c Config) Validate(ctx context.Context) error {
	if c.Format != "" {
		if _, ok := document.ParseFormat(c.Format); !ok {
			return fmt.Errorf("--format: unknown input format %q (want %s)", c.Format, document.FormatNames())
		}
	}
	if err := document.CheckToolCalls(c.ToolCalls); err != nil {
		return fmt.Errorf("--tool-calls: %v", err)
	}
	eng, err := c.engine(ctx)
	var ce *policy.CompileError
	if errors.As(err, &ce) {
		return fmt.Errorf("policies do not compile:\n%s", ce.Error())
	}
	var bad *setup.ConfigError
	if errors.As(err, &bad) {
		return bad
	}
	if err != nil {
		return err
	}
	if err := eng.CheckProfile(c.Profile); err != nil {
		return fmt.Errorf("--profile: %v", err)
	}
	if _, err := c.options(eng); err != nil {
		return fmt.Errorf("--model: %v", err)
	}
	return nil
}

func (c Config) documentOptions() document.Options {
	return document.Options{ToolCalls: c.ToolCalls, Profile: c.Profile, MaxValues: c.MaxValues}
}

// engines holds the engines compiled in this process, by configuration: a
// worker runs many DoFn instances (one per bundle thread) and an engine is
// safe for concurrent use, so it is compiled once per process, not once per
// instance.
var engines sync.Map // sha256 of the Config's JSON -> *compiled

type compiled struct {
	once sync.Once
	eng  *policy.Engine
	err  error
}

func (c Config) engine(ctx context.Context) (*policy.Engine, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	v, _ := engines.LoadOrStore(sha256.Sum256(b), &compiled{})
	e := v.(*compiled)
	e.once.Do(func() {
		var cfg *config.Config
		if cfg, e.err = c.Settings.Config(); e.err != nil {
			e.err = fmt.Errorf("config: %v", e.err)
			return
		}
		// As the CLI builds its engine (the same packs, options and check
		// of the config's rule names), on the launcher and on each worker.
		e.eng, e.err = setup.Engine(ctx, c.Packs, cfg, c.Disable, c.RecordTimeout)
	})
	return e.eng, e.err
}
