package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
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
}

// BuiltinPrefix selects one built-in pack by name in PackSources.
const BuiltinPrefix = "builtin:"

// LoadPacks reads the packs named by sources: "builtin:NAME" for one
// built-in pack, anything else a pack folder. Unless noBuiltin is set or a
// source names a built-in pack, every built-in pack comes first, as in
// `chatlint check`.
func LoadPacks(sources []string, noBuiltin bool) ([]*policy.Pack, error) {
	all, err := builtin.Packs()
	if err != nil {
		return nil, fmt.Errorf("loading built-in packs: %w", err)
	}
	var packs []*policy.Pack
	picked := false
	for _, src := range sources {
		name, ok := strings.CutPrefix(src, BuiltinPrefix)
		if !ok {
			continue
		}
		p := findPack(all, name)
		if p == nil {
			return nil, fmt.Errorf("--pack %s: no built-in pack %q (have %s)", src, name, packNames(all))
		}
		packs = append(packs, p)
		picked = true
	}
	if !noBuiltin && !picked {
		packs = append(packs, all...)
	}
	for _, dir := range sources {
		if strings.HasPrefix(dir, BuiltinPrefix) {
			continue
		}
		info, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("--pack: %w", err)
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("--pack %s: not a directory", dir)
		}
		p, err := policy.LoadFS(os.DirFS(dir), ".", dir)
		if err != nil {
			return nil, fmt.Errorf("--pack %s: %w", dir, err)
		}
		packs = append(packs, p)
	}
	// A pack's *_test.rego files are for `chatlint test`, never evaluated:
	// they need not travel with the job.
	for i, p := range packs {
		cp := *p
		cp.Tests = nil
		packs[i] = &cp
	}
	return packs, nil
}

func findPack(packs []*policy.Pack, name string) *policy.Pack {
	for _, p := range packs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func packNames(packs []*policy.Pack) string {
	names := make([]string, len(packs))
	for i, p := range packs {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Validate checks the options and compiles the packs, so that a mistake is
// reported where the job is launched rather than by every worker.
func (c Config) Validate(ctx context.Context) error {
	if c.Format != "" {
		if _, ok := document.ParseFormat(c.Format); !ok {
			return fmt.Errorf("--format: unknown input format %q (want %s)", c.Format, document.FormatNames())
		}
	}
	if c.ToolCalls != "" && c.ToolCalls != "inline" && c.ToolCalls != "structured" {
		return fmt.Errorf("--tool-calls: want inline or structured, not %q", c.ToolCalls)
	}
	_, err := c.engine(ctx)
	var ce *policy.CompileError
	if errors.As(err, &ce) {
		return fmt.Errorf("policies do not compile:\n%s", ce.Error())
	}
	return err
}

func (c Config) documentOptions() document.Options {
	return document.Options{ToolCalls: c.ToolCalls}
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
		e.eng, e.err = policy.Compile(ctx, c.Packs, policy.Options{Disable: c.Disable, RecordTimeout: c.RecordTimeout})
	})
	return e.eng, e.err
}
