package provision_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/facts"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/transporttest"
)

// sudoFacts is a fake host's handler that plays a login user "deploy"
// and sudo for the fact script: the script's output names deploy, or with
// become the become user, their identity, home and HOME, as the script
// prints them logged in as deploy or under a real sudo -H; other scripts
// run as they are.
func sudoFacts(ctx context.Context, h *transporttest.Host, cmd transport.Cmd) (transport.Result, error) {
	res, err := transporttest.Shell(ctx, h, cmd)
	if err != nil || cmd.Script != facts.Script {
		return res, err
	}
	user, uid := "deploy", 1000
	if cmd.Become != nil {
		user, uid = cmd.Become.User, 1500
		if user == "" || user == "root" {
			user, uid = "root", 0
		}
	}
	home := "/home/" + user
	if uid == 0 {
		home = "/root"
	}
	repl := map[string]string{
		"v|user_id|":  user,
		"v|user_uid|": fmt.Sprint(uid),
		"v|user_gid|": fmt.Sprint(uid),
		"v|passwd|":   fmt.Sprintf("%s:x:%d:%d:%s:%s:/bin/bash", user, uid, uid, user, home),
		"e|HOME|":     home,
	}
	lines := strings.Split(string(res.Stdout), "\n")
	for i, l := range lines {
		for prefix, v := range repl {
			if strings.HasPrefix(l, prefix) {
				lines[i] = prefix + v
			}
		}
	}
	res.Stdout = []byte(strings.Join(lines, "\n"))
	return res, nil
}

// TestFactsGatheredThroughBecome: fact gathering (the play's and a setup
// task) runs through the play's or task's become, as Ansible runs setup,
// so ansible_user_id and the other user facts name the become user; a
// play without become gathers as the login user. The play's environment
// reaches ansible_env, as in Ansible.
func TestFactsGatheredThroughBecome(t *testing.T) {
	f := transporttest.NewFake(t)
	f.Host("h1").SetHandler(sudoFacts)
	out, recap, err := play(t, "h1\n", `
- hosts: all
  become: true
  environment:
    GATHERED_WITH: play-env
  tasks:
    - debug: msg="env {{ ansible_env.GATHERED_WITH }}"
    - debug: msg="play {{ ansible_user_id }} {{ ansible_user_uid }} {{ ansible_user_gid }} {{ ansible_user_dir }} {{ ansible_env.HOME }}"
    - setup:
      become_user: app
    - debug: msg="become_user {{ ansible_user_id }} {{ ansible_user_uid }} {{ ansible_user_dir }}"
    - setup:
      become: false
    - debug: msg="no become {{ ansible_user_id }}"
- hosts: all
  become: true
  gather_facts: true
  vars:
    ansible_become: false
  tasks:
    - debug: msg="become var off {{ ansible_user_id }}"
`, func(r *provision.Runner) { withSSH(r, f) })
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["h1"]; s == nil || s.Failed != 0 {
		t.Fatalf("run failed: %+v\n%s", s, out)
	}
	for _, want := range []string{
		`"msg": "play root 0 0 /root /root"`,
		`"msg": "env play-env"`,
		`"msg": "become_user app 1500 /home/app"`,
		`"msg": "no become deploy"`,
		`"msg": "become var off deploy"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
}
