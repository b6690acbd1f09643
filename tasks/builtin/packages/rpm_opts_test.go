package packages

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestDnfOptions: dnf's options reach every dnf call as Ansible's dnf
// configures its base (the installs and upgrades get theirs), and the
// module answers what needs no dnf as Ansible's does.
func TestDnfOptions(t *testing.T) {
	env, _, state := fakeRPMHost{repo: rpmRepo, inst: map[string]string{"hello": "1.0-1.noarch"}}.env(t)
	res := modtest.RunMod(t, env, "dnf", tasks.Args{"name": []any{"one,two"}, "exclude": "x,y", "disablerepo": []any{"a,b"},
		"conf_file": "/dev/null", "installroot": "/", "releasever": "9", "disable_excludes": "main", "disable_plugin": "p",
		"enable_plugin": []any{"q", "r"}, "sslverify": false, "install_weak_deps": false, "cacheonly": true, "skip_broken": true,
		"nobest": true, "allowerasing": true})
	if res.Failed || !res.Changed || len(res.Warnings) != 0 {
		t.Fatalf("install: %+v", res)
	}
	want := "-y --disablerepo=a,b --exclude=x,y --disableplugin=p --enableplugin=q,r --setopt=gpgcheck=1 --setopt=localpkg_gpgcheck=1 " +
		"--config=/dev/null --releasever=9 --disableexcludes=main --setopt=sslverify=False --setopt=install_weak_deps=False " +
		"--cacheonly --setopt=strict=False --setopt=best=False --allowerasing install -- one two\n"
	if log := modtest.FakeLog(t, state); !strings.Contains(log, want) {
		t.Errorf("install ran\n%s\nwant\n%s", log, want)
	}
	res = modtest.RunMod(t, env, "dnf", tasks.Args{"name": "hello", "state": "latest", "security": true, "bugfix": true})
	if log := modtest.FakeLog(t, state); !res.Changed || !strings.Contains(log, " --setopt=best=True upgrade-minimal -- hello\n") ||
		!strings.Contains(log, "--bugfix --security check-update -- hello\n") {
		t.Errorf("security upgrade: %+v\n%s", res, log)
	}
	if res.Warnings == nil || !strings.Contains(res.Warnings[0], `use "releasever" option`) {
		t.Errorf("no release version and no releasever: warnings %v", res.Warnings)
	}
	res = modtest.RunMod(t, env, "dnf", tasks.Args{"name": "one", "conf_file": "/no/such.conf"})
	if !res.Failed || res.Msg != "cannot read configuration file" || res.Data["conf_file"] != "/no/such.conf" {
		t.Errorf("missing conf_file: %+v", res)
	}
	res = modtest.RunMod(t, env, "dnf", tasks.Args{"name": []any{"base", "app"}, "update_only": true})
	if res.Changed || res.Msg != "Nothing to do" || !reflect.DeepEqual(res.Data["results"], []any{
		"Packages providing base not installed due to update_only specified", "Packages providing app not installed due to update_only specified"}) {
		t.Errorf("update_only: %+v", res)
	}
	res = modtest.RunMod(t, env, "dnf", tasks.Args{"list": "repos", "update_cache": true})
	if res.Failed || res.Changed || !strings.HasSuffix(strings.TrimSpace(modtest.FakeLog(t, state)), "makecache\n-q --setopt=gpgcheck=1 --setopt=localpkg_gpgcheck=1 --setopt=sslverify=True --setopt=install_weak_deps=True repolist --enabled") {
		t.Errorf("list with update_cache: %+v\n%s", res, modtest.FakeLog(t, state))
	}
	for args, msg := range map[string]tasks.Args{
		"parameters are mutually exclusive: name|list":         {"name": "one", "list": "installed"},
		"Autoremove should be used alone or with state=absent": {"autoremove": true, "state": "removed"},
		"It appears that a space separated string of packages was passed in as an argument. To operate on several packages, pass a comma separated string of packages or a list of packages.": {"name": "one two"},
	} {
		res, err := (rpmModule{tool: "dnf"}).Run(t.Context(), env, msg)
		if got := res.Msg + errText(err); got != args {
			t.Errorf("%v: %q, want %q", msg, got, args)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestDnfResults: what Ansible's dnf returns for a dependency problem,
// download_only, and list.
func TestDnfResults(t *testing.T) {
	res := rpmFailure("Last metadata expiration check: 0:00:02 ago.\nError: \n Problem: conflicting requests\n  - nothing provides x needed by y-1.0-1.noarch\n(try to add '--skip-broken' to skip uninstallable packages)\n")
	if res.Msg != "Depsolve Error occurred: \n Problem: conflicting requests\n  - nothing provides x needed by y-1.0-1.noarch" ||
		!reflect.DeepEqual(res.Data["failures"], []any{}) {
		t.Errorf("depsolve: %+v", res)
	}
	res = rpmResult(shared.Verdict{"verdict": "ran", "rc": "0", "dl": "1"}, []string{"dl=1", "installed=b-1-1.noarch"}, "")
	if res.Changed || res.Failed {
		t.Errorf("download_only, nothing downloaded: %+v", res)
	}
	res = rpmResult(shared.Verdict{"verdict": "ran", "rc": "0", "dl": "1", "dlchanged": "1"}, []string{"dl=1", "installed=b-1-1.noarch", "installed=a-1-1.noarch", "removed=b-0-1.noarch"}, "")
	if !res.Changed || !reflect.DeepEqual(res.Data["results"], []any{"Downloaded: a-1-1.noarch", "Downloaded: b-1-1.noarch", "Removed: b-0-1.noarch"}) {
		t.Errorf("download_only: %+v", res)
	}
	res = rpmListResult([]string{"warning=w", "pkg=a|noarch|0|1.0|1|@System|2026-01-01 00:00", "pkg=a|noarch|1|2.0|1|main|", "repo=main"})
	want := []any{
		map[string]any{"name": "a", "arch": "noarch", "epoch": "0", "version": "1.0", "release": "1", "repo": "@System",
			"envra": "0:a-1.0-1.noarch", "nevra": "0:a-1.0-1.noarch", "yumstate": "installed"},
		map[string]any{"name": "a", "arch": "noarch", "epoch": "1", "version": "2.0", "release": "1", "repo": "main",
			"envra": "1:a-2.0-1.noarch", "nevra": "1:a-2.0-1.noarch", "yumstate": "available"},
		map[string]any{"repoid": "main", "state": "enabled"},
	}
	if res.Changed || res.Data["msg"] != "" || !reflect.DeepEqual(res.Data["results"], want) || !reflect.DeepEqual(res.Warnings, []string{"w"}) {
		t.Errorf("list: %+v", res)
	}
}

// TestDnfUpgradeAll: name=* with state=latest upgrades what is installed
// (one dnf upgrade without names), as Ansible's dnf, and installs
// nothing else; a second run has nothing to do.
func TestDnfUpgradeAll(t *testing.T) {
	env, _, state := fakeRPMHost{repo: rpmRepo, inst: map[string]string{"hello": "1.0-1.noarch", "one": "1.0-1.noarch"}}.env(t)
	env.Check = true
	res := modtest.RunMod(t, env, "dnf", tasks.Args{"name": "*", "state": "latest"})
	if !res.Changed || !reflect.DeepEqual(res.Data["results"], []any{"Installed: hello"}) {
		t.Errorf("check: %+v", res)
	}
	env.Check = false
	res = modtest.RunMod(t, env, "dnf", tasks.Args{"name": "*", "state": "latest"})
	if !res.Changed || !reflect.DeepEqual(res.Data["results"], []any{"Installed: hello-2.0-1.noarch", "Removed: hello-1.0-1.noarch"}) {
		t.Errorf("upgrade: %+v", res)
	}
	if log := modtest.FakeLog(t, state); !strings.Contains(log, " --setopt=best=True upgrade\n") || strings.Contains(log, " install ") {
		t.Errorf("dnf ran\n%s", log)
	}
	if res = modtest.RunMod(t, env, "dnf", tasks.Args{"name": "*", "state": "latest"}); res.Changed || res.Msg != "Nothing to do" {
		t.Errorf("again: %+v", res)
	}
}
