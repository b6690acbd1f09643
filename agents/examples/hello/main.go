// Command hello is tender's example agent: it listens on a TCP port and
// answers every connection with one line, "hello VERSION", then closes it.
// Its version is stamped at build time (make hello-agent also packs it
// into the bundle's package, build/hello.tar.gz):
//
//	CGO_ENABLED=0 go build -ldflags '-X main.version=2' -o build/bin/hello ./agents/examples/hello
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"time"
)

// version is set with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	addr := flag.String("listen", ":7070", "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("hello %s listening on %s", version, ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Print(err)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		go func() {
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			fmt.Fprintf(c, "hello %s\n", version)
		}()
	}
}
