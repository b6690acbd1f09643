package main

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// agentResult is the no-op fleet check: tender agent deploy on hosts whose
// agent is in sync, against ansible-playbook running the bundle's playbook
// on the same hosts (what a runner without tender's ledger does to make
// sure they are in sync).
type agentResult struct {
	tender, ansible time.Duration // medians
	ansibleTasks    int           // module runs per host in ansible's run
}

var okCount = regexp.MustCompile(`h1\s+:\s+ok=(\d+)`)

// measureAgent deploys agents/examples/hello to the fleet once with tender,
// then times the no-op check of both tools, rounds times each.
func measureAgent(f *fleet, inv string, n, rounds int) (agentResult, error) {
	bundle, _ := filepath.Abs("agents/examples/hello")
	if _, err := sh("make", "hello-agent"); err != nil {
		return agentResult{}, err
	}
	state := filepath.Join(f.dir, "ledger.db")
	kh := filepath.Join(f.dir, "known_hosts-agent")
	tender := func() (time.Duration, string, error) {
		return timedOut(filepath.Join(f.dir, "tender"), []string{"NO_COLOR=1"}, "agent", "deploy", "-i", inv,
			"--bundle", bundle, "--state", state, "--forks", fmt.Sprint(n), "--host-key-checking", "accept-new", "--known-hosts", kh)
	}
	if _, out, err := tender(); err != nil {
		return agentResult{}, err
	} else if !regexp.MustCompile(fmt.Sprintf(`%d deployed, 0 failed`, n)).MatchString(out) {
		return agentResult{}, fmt.Errorf("first deploy:\n%s", out)
	}
	// The vars tender's Deployer passes the playbook, for ansible-playbook.
	pkg, err := os.ReadFile(filepath.Join(bundle, "build/hello.tar.gz"))
	if err != nil {
		return agentResult{}, err
	}
	sum := md5.Sum(pkg)
	files := []map[string]any{
		{"src": bundle + "/build/hello.tar.gz", "dest": "/opt/hello/hello.tar.gz", "mode": "0644", "owner": "root", "group": "root",
			"md5": hex.EncodeToString(sum[:])},
		{"src": bundle + "/files/hello.init", "dest": "/etc/init.d/hello", "mode": "0755", "owner": "root", "group": "root"},
	}
	vars, _ := json.Marshal(map[string]any{"init": false, "agent_action": "repair", "agent_bundle_files": files,
		"agent_name": "hello", "agent_version": "1", "agent_package": "/opt/hello/hello.tar.gz", "hello_port": 7070, "hello_user": "hello"})
	ansible := func() (time.Duration, string, error) {
		return timedOut("ansible-playbook", []string{"ANSIBLE_PIPELINING=1", "ANSIBLE_HOST_KEY_CHECKING=0", "ANSIBLE_NOCOLOR=1",
			fmt.Sprintf("ANSIBLE_FORKS=%d", n), "ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3"},
			"-i", inv, filepath.Join(bundle, "deploy.yml"), "-e", string(vars))
	}
	var r agentResult
	var ts, as []time.Duration
	for i := 0; i < rounds; i++ {
		d, out, err := tender()
		if err != nil {
			return r, err
		}
		if !regexp.MustCompile(fmt.Sprintf(`0 deployed, 0 failed, %d up to date`, n)).MatchString(out) {
			return r, fmt.Errorf("no-op deploy was not a no-op:\n%s", out)
		}
		ts = append(ts, d)
		d, out, err = ansible()
		if err != nil {
			return r, err
		}
		if m := okCount.FindStringSubmatch(out); m != nil {
			r.ansibleTasks, _ = strconv.Atoi(m[1])
		}
		as = append(as, d)
	}
	r.tender, r.ansible = median(ts), median(as)
	return r, nil
}
