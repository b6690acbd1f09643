package packages

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// options sets j's command-line options from dnf's arguments, as
// Ansible's dnf configures its dnf.Base: repositories enabled and
// disabled, signature checks, the configuration file, installroot,
// releasever, excludes, plugins, TLS verification, the cache only, weak
// dependencies, strict (skip_broken), best (nobest; latest asks for the
// best), and for installs and upgrades allowerasing and download_only.
func (j *rpmJob) options(a tasks.Values) error {
	for _, o := range []struct{ key, flag string }{{"enablerepo", "--enablerepo="}, {"disablerepo", "--disablerepo="},
		{"exclude", "--exclude="}, {"disable_plugin", "--disableplugin="}, {"enable_plugin", "--enableplugin="}} {
		if l := commaSplit(a.Strings(o.key)); len(l) > 0 {
			j.opts = append(j.opts, o.flag+strings.Join(l, ","))
		}
	}
	// Ansible's dnf turns signature checks on for repositories that do not
	// say otherwise and for local rpms unless disable_gpg_check.
	if a.Bool("disable_gpg_check") {
		j.opts = append(j.opts, "--nogpgcheck")
	} else {
		j.opts = append(j.opts, "--setopt=gpgcheck=1", "--setopt=localpkg_gpgcheck=1")
	}
	if j.conf = a.Str("conf_file"); j.conf != "" {
		j.opts = append(j.opts, "--config="+j.conf)
	}
	if r := a.Str("installroot"); r != "" && r != "/" {
		j.root = r
		j.opts = append(j.opts, "--installroot="+r)
	}
	if a.Has("releasever") {
		j.relver = a.Str("releasever")
		j.opts = append(j.opts, "--releasever="+j.relver)
	}
	if d := a.Str("disable_excludes"); d != "" {
		j.opts = append(j.opts, "--disableexcludes="+d)
	}
	j.opts = append(j.opts, "--setopt=sslverify="+pyBool(a.Bool("sslverify")),
		"--setopt=install_weak_deps="+pyBool(a.Bool("install_weak_deps")))
	if a.Bool("cacheonly") {
		j.opts = append(j.opts, "--cacheonly")
	}
	if a.Bool("skip_broken") {
		j.opts = append(j.opts, "--setopt=strict=False")
	}
	if a.Bool("nobest") {
		j.opts = append(j.opts, "--setopt=best=False")
	} else if j.state == "latest" {
		j.iopts = append(j.iopts, "--setopt=best=True")
	}
	for _, k := range []string{"bugfix", "security"} {
		if a.Bool(k) {
			j.secopts = append(j.secopts, "--"+k)
		}
	}
	if a.Bool("allowerasing") {
		j.iopts = append(j.iopts, "--allowerasing")
	}
	if j.dl = a.Bool("download_only"); j.dl {
		j.iopts = append(j.iopts, "--downloadonly")
		if j.dlDir = a.Str("download_dir"); j.dlDir != "" {
			j.iopts = append(j.iopts, "--downloaddir="+j.dlDir)
		}
	}
	j.downgrade, j.updateOnly = a.Bool("allow_downgrade"), a.Bool("update_only")
	j.visible = len(a.Strings("exclude")) > 0 || j.conf != ""
	j.lockWait = fmt.Sprint(a.Int("lock_timeout"))
	for _, o := range append(append(append([]string{}, j.opts...), j.iopts...), j.list) {
		if strings.ContainsAny(o, "\n\r") {
			return fmt.Errorf("%s: invalid value in %q", j.tool, o)
		}
	}
	return nil
}

// pyBool is b as dnf's configuration writes booleans.
func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// commaSplit splits every element of l that holds commas, as Ansible's
// dnf does with names, repositories and excludes given as "a,b".
func commaSplit(l []string) []string {
	var out []string
	for _, e := range l {
		if !strings.Contains(e, ",") {
			out = append(out, e)
			continue
		}
		for _, p := range strings.Split(e, ",") {
			out = append(out, strings.TrimSpace(p))
		}
	}
	if len(out) == 1 && out[0] == "" {
		return nil
	}
	return out
}
