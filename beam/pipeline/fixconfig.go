package pipeline

import (
	"context"
	"fmt"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// Fix is what a job fixing records carries beside its Config: the cleanup
// packs, read where the pipeline is built so that they travel inside the
// job's serialized graph, as the check packs do. Config.Packs is unused
// when fixing; its other fields (format, tool calls, line bound, disabled
// rules, time limit) apply.
type Fix struct {
	// Stages are the packs as `chatlint fix` compiles them: each --pack
	// reference (with the packs it extends) on its own, run one after the
	// other on a document.
	Stages [][]*policy.Pack
	// ByFormat lists, per input format, the stages run on it, in order.
	ByFormat map[string][]int
	// MaxPasses bounds the passes over one document; 0 means
	// fix.DefaultMaxPasses.
	MaxPasses int
}

// LoadFix reads the cleanup packs as `chatlint fix` does: each source
// ("builtin:NAME", a folder, an OPA bundle) is a stage run on every format;
// without sources each format gets its default built-in cleanup pack
// (builtin.CleanupRefs).
func LoadFix(sources []string, maxPasses int) (*Fix, error) {
	fx := &Fix{ByFormat: map[string][]int{}, MaxPasses: maxPasses}
	stage := map[string]int{} // reference -> index in Stages
	for _, f := range document.Formats {
		for _, ref := range builtin.CleanupRefs(f, sources) {
			i, ok := stage[ref]
			if !ok {
				l := config.NewPackLoader()
				if err := l.Add(ref); err != nil {
					return nil, fmt.Errorf("--pack: %w", err)
				}
				i = len(fx.Stages)
				stage[ref] = i
				fx.Stages = append(fx.Stages, withoutTests(l.Packs()))
			}
			fx.ByFormat[string(f)] = append(fx.ByFormat[string(f)], i)
		}
	}
	return fx, nil
}

// stage is the Config compiling one stage: c's options with the stage's
// packs. Its engine is compiled once per worker process, like check's.
func (fx *Fix) stage(c Config, i int) Config {
	c.Packs = fx.Stages[i]
	return c
}

// Validate compiles every stage where the job is launched, so that a pack
// that does not compile is a usage error rather than a failure of every
// worker.
func (fx *Fix) Validate(ctx context.Context, c Config) error {
	if fx.MaxPasses < 0 {
		return fmt.Errorf("--max-passes: want at least 1")
	}
	for i := range fx.Stages {
		if err := fx.stage(c, i).Validate(ctx); err != nil {
			return err
		}
	}
	return nil
}
