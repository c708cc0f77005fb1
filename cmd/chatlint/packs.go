package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
)

// packOptions are the flags every command that evaluates rules shares.
type packOptions struct {
	Packs     []string // --pack DIR, repeatable
	NoBuiltin bool
	Disable   []string
	Timeout   time.Duration // per document
	// Cleanup loads the built-in cleanup packs too (kind: cleanup), which
	// only fix runs by default.
	Cleanup bool
}

// compile loads the built-in packs (unless turned off) and the packs on
// disk, and compiles them into one engine.
func (o packOptions) compile(ctx context.Context) (*policy.Engine, error) {
	packs, err := o.load()
	if err != nil {
		return nil, err
	}
	eng, err := policy.Compile(ctx, packs, policy.Options{Disable: o.Disable, RecordTimeout: o.Timeout})
	var ce *policy.CompileError
	if errors.As(err, &ce) {
		return nil, &exitCode{code: exitError, err: fmt.Errorf("policies do not compile:\n%s", ce.Error())}
	}
	return eng, err
}

// load reads the packs without compiling them.
func (o packOptions) load() ([]*policy.Pack, error) {
	var packs []*policy.Pack
	if !o.NoBuiltin {
		load := builtin.Packs
		if o.Cleanup {
			load = builtin.All
		}
		b, err := load()
		if err != nil {
			return nil, fmt.Errorf("loading built-in packs: %w", err)
		}
		packs = append(packs, b...)
	}
	for _, dir := range o.Packs {
		if name, ok := strings.CutPrefix(dir, "builtin:"); ok {
			p, err := builtinPack(name)
			if err != nil {
				return nil, err
			}
			packs = append(packs, p)
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
	return packs, nil
}

// builtinPack returns the built-in pack of that name (--pack builtin:NAME).
func builtinPack(name string) (*policy.Pack, error) {
	b, err := builtin.All()
	if err != nil {
		return nil, fmt.Errorf("loading built-in packs: %w", err)
	}
	var names []string
	for _, p := range b {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return nil, fmt.Errorf("--pack builtin:%s: no such built-in pack (have %s)", name, strings.Join(names, ", "))
}
