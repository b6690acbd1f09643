package main

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// reach sets where the tools connect to each container (f.addrs): its
// address on Docker's bridge, port 22, when every container's sshd
// answers there, so that no docker-proxy (the userland proxy Docker
// runs for each published port) stands between the tools and the hosts,
// taking the machine's CPU and adding a hop to every packet, as no such
// proxy does in front of a real host; else, or with published set, the
// ports published on 127.0.0.1.
func (f *fleet) reach(published bool) error {
	f.addrs, f.bridged = nil, false
	var bridged []string
	for _, p := range f.ports {
		f.addrs = append(f.addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if published || bridged == nil && len(f.addrs) > 1 {
			continue
		}
		id, err := containerOf(f, p)
		if err != nil {
			return err
		}
		o, err := sh("docker", "inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}", id)
		ips := strings.Fields(o)
		if err != nil || len(ips) == 0 || !answersSSH(net.JoinHostPort(ips[0], "22")) {
			bridged = nil
			continue
		}
		bridged = append(bridged, net.JoinHostPort(ips[0], "22"))
	}
	if len(bridged) == len(f.ports) {
		f.addrs, f.bridged = bridged, true
	}
	fmt.Printf("hosts reached at %s\n", strings.Join(f.addrs, " "))
	return nil
}

// answersSSH tells whether an SSH server greets a connection to addr
// within two seconds.
func answersSSH(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "SSH-")
}

// containerOf is the ID of the fleet's container that publishes its sshd
// on port.
func containerOf(f *fleet, port int) (string, error) {
	ids, err := f.compose("ps", "-q", "py")
	if err != nil {
		return "", err
	}
	for _, c := range strings.Fields(ids) {
		o, err := sh("docker", "port", c, "22")
		if err != nil {
			continue
		}
		for _, l := range strings.Fields(o) {
			if strings.HasSuffix(l, ":"+strconv.Itoa(port)) {
				return c, nil
			}
		}
	}
	return "", fmt.Errorf("no container publishes port %d", port)
}

// reachedText says in docs/BENCHMARKS.md how the tools reached the hosts.
func reachedText(bridged bool) string {
	if bridged {
		return "Both tools (and the delaying proxies) connect to each container's address on Docker's bridge, " +
			"with no docker-proxy in the path (`-published` goes through the ports Docker publishes instead)."
	}
	return "Both tools (and the delaying proxies) connect through the ports Docker publishes on 127.0.0.1, " +
		"each through Docker's userland proxy (the containers' bridge addresses did not answer, or `-published` was given)."
}
