package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/provision"
)

// retryFiles writes Ansible's retry file when RETRY_FILES_ENABLED is set:
// at the end of each playbook that left hosts failed or unreachable, the
// hosts' names, one a line, in PLAYBOOK.retry beside the playbook (or in
// RETRY_FILES_SAVE_PATH), and on out, before the recap, the line that
// says to retry with --limit @FILE. Other events pass on to next.
func retryFiles(cfg *config.Config, out, warn io.Writer, next func(provision.Event)) (func(provision.Event), error) {
	on, err := settingBool(cfg, "RETRY_FILES_ENABLED")
	if err != nil || !on {
		return next, err
	}
	dir, err := settingStr(cfg, "RETRY_FILES_SAVE_PATH")
	if err != nil {
		return nil, err
	}
	return func(e provision.Event) {
		if e.Kind == provision.PlaybookEnd && e.Recap != nil {
			var hosts []string
			for h, s := range e.Recap.Stats {
				if s.Failed > 0 || s.Unreachable > 0 {
					hosts = append(hosts, h)
				}
			}
			if len(hosts) > 0 {
				sort.Strings(hosts)
				base := dir
				if base == "" {
					abs, _ := filepath.Abs(e.Path)
					base = filepath.Dir(abs)
				}
				name := strings.TrimSuffix(filepath.Base(e.Path), filepath.Ext(e.Path)) + ".retry"
				file := filepath.Join(base, name)
				err := os.MkdirAll(base, 0o755)
				if err == nil {
					err = os.WriteFile(file, []byte(strings.Join(hosts, "\n")+"\n"), 0o644)
				}
				if err != nil {
					printWarning(warn, fmt.Sprintf("Could not create retry file '%s'. %v", file, err))
				} else {
					fmt.Fprintf(out, "\tto retry, use: --limit @%s\n", file)
				}
			}
		}
		next(e)
	}, nil
}
