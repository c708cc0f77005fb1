package check

import (
	"github.com/spf13/cobra"
	"strings"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/setup"
)

// gateOptions are check's flags for adopting rules on existing data and
// for how the report looks.
type gateOptions struct {
	Baseline      string
	WriteBaseline string
	Color         string
}

func addGateFlags(cmd *cobra.Command, o *gateOptions) {
	f := cmd.Flags()
	f.StringVar(&o.Baseline, "baseline", "", "report only findings that are not in the baseline `FILE`")
	f.StringVar(&o.WriteBaseline, "write-baseline", "", "record this run's findings in the baseline `FILE` (the run still reports them)")
	f.StringVar(&o.Color, "color", "auto", "colour severities in text output: auto (only on a terminal, and not when NO_COLOR is set), always or never")
}

// applyCheckConfig fills check's options from the config file where the
// command line did not set them: flags win over the file.
func applyCheckConfig(cmd *cobra.Command, o *checkOptions) error {
	cfg, err := o.Config()
	if err != nil || cfg == nil {
		return err
	}
	changed := cmd.Flags().Changed
	o.Settings.FromConfig(cfg, changed)
	if cfg.Profile != "" && !changed("profile") {
		o.from.profile = cfg.Where("profile")
	}
	if cfg.MaxLineSize != "" && !changed("max-line-size") {
		if _, err := setup.ParseSize(cfg.MaxLineSize); err != nil {
			return cmdutil.UsageError("config: %s: %v", cfg.Where("max_line_size"), err)
		}
	}
	if cfg.MaxRecordValues != "" && !changed("max-record-values") {
		if _, err := setup.ParseCount(cfg.MaxRecordValues); err != nil {
			return cmdutil.UsageError("config: %s: %v", cfg.Where("max_record_values"), err)
		}
	}
	if len(cfg.Output) > 0 && !changed("output") {
		for _, v := range cfg.Output {
			spec, err := cmdutil.ParseOutputs("check", []string{v})
			if err != nil {
				return cmdutil.UsageError("config: %s: %v", cfg.Where("output"), err)
			}
			if spec[0].File != "" {
				v = spec[0].Format + "=" + cfg.Resolve(spec[0].File)
			}
			o.Outputs = append(o.Outputs, v)
		}
	}
	if cfg.Baseline != "" && !changed("baseline") && !changed("write-baseline") {
		o.Baseline = cfg.Resolve(cfg.Baseline)
		o.from.baseline = cfg.Where("baseline")
	}
	return nil
}

// configFrom names the config keys that set values the command checks only
// later, so that their errors point at the file, not at a flag never given.
type configFrom struct {
	profile, baseline string
}

// fromConfig rewords err, written for the flag, for the config key where
// (when the value came from there).
func fromConfig(err error, where, flag string) error {
	if err == nil || where == "" {
		return err
	}
	msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), flag+": "), flag+" ")
	return cmdutil.UsageError("config: %s: %s", where, msg)
}
