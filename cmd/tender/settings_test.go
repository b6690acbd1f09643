package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/transport/ssh"
)

// withRunFlags parses args as tender play's run flags and calls fn with
// the context and the configuration loadConfig reads.
func withRunFlags(t *testing.T, args []string, fn func(c *cli.Context, cfg *config.Config)) {
	t.Helper()
	app := &cli.App{Name: "tender", Writer: os.Stdout, ErrWriter: os.Stderr, DisableSliceFlagSeparator: true,
		Commands: []*cli.Command{{Name: "play", Flags: runFlags(), UseShortOptionHandling: true, Action: func(c *cli.Context) error {
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			fn(c, cfg)
			return nil
		}}}}
	if err := app.Run(append([]string{"tender", "play"}, args...)); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsReachTheDialer: ansible.cfg and ANSIBLE_* settings set the
// login user, key, connect timeout and host key checking, and the command
// line wins over them, as with ansible-playbook.
func TestSettingsReachTheDialer(t *testing.T) {
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "ansible.cfg")
	os.WriteFile(cfgFile, []byte("[defaults]\nremote_user = carol\nprivate_key_file = /keys/id\ntimeout = 3\n"), 0o644)
	t.Setenv("ANSIBLE_CONFIG", cfgFile)
	t.Setenv("ANSIBLE_HOST_KEY_CHECKING", "False")
	withRunFlags(t, nil, func(c *cli.Context, cfg *config.Config) {
		d, err := sshDialer(c, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if d.User != "carol" || len(d.KeyFiles) != 1 || d.KeyFiles[0] != "/keys/id" || d.ConnectTimeout != 3*time.Second || d.HostKeys != ssh.HostKeyInsecure {
			t.Errorf("from the settings: %+v", d)
		}
	})
	withRunFlags(t, []string{"-u", "dave", "--private-key", "/k2", "-T", "7", "--host-key-checking", "strict"}, func(c *cli.Context, cfg *config.Config) {
		d, err := sshDialer(c, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if d.User != "dave" || len(d.KeyFiles) != 1 || d.KeyFiles[0] != "/k2" || d.ConnectTimeout != 7*time.Second || d.HostKeys != ssh.HostKeyStrict {
			t.Errorf("the command line must win: %+v", d)
		}
	})
	withRunFlags(t, []string{"--scp-extra-args", "-l 10"}, func(c *cli.Context, cfg *config.Config) {
		if _, err := sshDialer(c, cfg); err == nil || !strings.Contains(err.Error(), "runs no sftp or scp program") {
			t.Errorf("--scp-extra-args must be refused, got %v", err)
		}
	})
}

// TestPlayDefaultsFromSettings: -b, --become-user, -c and the become and
// gathering settings give every play its defaults; an unknown become
// method or connection is refused.
func TestPlayDefaultsFromSettings(t *testing.T) {
	t.Setenv("ANSIBLE_CONFIG", filepath.Join(t.TempDir(), "none.cfg"))
	t.Setenv("ANSIBLE_BECOME_USER", "app")
	t.Setenv("ANSIBLE_GATHERING", "smart")
	t.Setenv("ANSIBLE_FORCE_HANDLERS", "yes")
	t.Setenv("ANSIBLE_GATHER_SUBSET", "!hardware,network")
	t.Setenv("ANSIBLE_GATHER_TIMEOUT", "30")
	t.Setenv("ANSIBLE_FACT_PATH", "/opt/facts.d")
	withRunFlags(t, []string{"-b", "-c", "local"}, func(c *cli.Context, cfg *config.Config) {
		d, err := playDefaults(c, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Become || d.BecomeUser != "app" || d.Connection != "local" || d.Gathering != "smart" || !d.ForceHandlers {
			t.Errorf("defaults: %+v", d)
		}
		if fmt.Sprint(d.GatherSubset) != "[!hardware network]" || d.GatherTimeout == nil || *d.GatherTimeout != 30 || d.FactPath != "/opt/facts.d" {
			t.Errorf("gathering defaults: %v %v %q", d.GatherSubset, d.GatherTimeout, d.FactPath)
		}
	})
	os.Unsetenv("ANSIBLE_GATHER_TIMEOUT")
	os.Unsetenv("ANSIBLE_GATHER_SUBSET")
	withRunFlags(t, nil, func(c *cli.Context, cfg *config.Config) {
		if d, err := playDefaults(c, cfg); err != nil || d.GatherSubset != nil || d.GatherTimeout != nil {
			t.Errorf("unset: want no gathering defaults, got %v %v (%v)", d.GatherSubset, d.GatherTimeout, err)
		}
	})
	withRunFlags(t, []string{"--become-user", "root", "--become-method", "pbrun"}, func(c *cli.Context, cfg *config.Config) {
		if _, err := playDefaults(c, cfg); err == nil || !strings.Contains(err.Error(), `become method "pbrun"`) {
			t.Errorf("want pbrun refused, got %v", err)
		}
	})
	// As Ansible, a connection type is looked for when a host uses it
	// (a host's ansible_connection may override it).
	withRunFlags(t, []string{"-c", "winrm"}, func(c *cli.Context, cfg *config.Config) {
		if d, err := playDefaults(c, cfg); err != nil || d.Connection != "winrm" {
			t.Errorf("want winrm passed on, got %q, %v", d.Connection, err)
		}
	})
}

// TestPasswordFiles: --connection-password-file and --become-password-file
// read a file (blanks around dropped) or run an executable and take its
// output; a missing file is an error that names it.
func TestPasswordFiles(t *testing.T) {
	dir := t.TempDir()
	file, script := filepath.Join(dir, "pw"), filepath.Join(dir, "pw.sh")
	os.WriteFile(file, []byte("  s3cret \n"), 0o600)
	os.WriteFile(script, []byte("#!/bin/sh\necho 'from a script'\n"), 0o700)
	t.Setenv("ANSIBLE_CONFIG", filepath.Join(dir, "none.cfg"))
	withRunFlags(t, []string{"--connection-password-file", file, "--become-password-file", script}, func(c *cli.Context, cfg *config.Config) {
		sshPw, becomePw, err := loginPasswords(c, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if sshPw != "s3cret" || becomePw != "from a script" {
			t.Errorf("got %q and %q", sshPw, becomePw)
		}
	})
	withRunFlags(t, []string{"--connection-password-file", filepath.Join(dir, "nothere")}, func(c *cli.Context, cfg *config.Config) {
		if _, _, err := loginPasswords(c, cfg); err == nil || !strings.Contains(err.Error(), "nothere was not found") {
			t.Errorf("want the missing file named, got %v", err)
		}
	})
}
