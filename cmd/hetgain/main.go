package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// The first SIGINT or SIGTERM cancels ctx, and long commands stop
	// cleanly; after it, the default handling is restored, so a second
	// Ctrl-C ends the process at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := newApp(ctx, os.Stdout, os.Stderr).run(os.Args[1:])
	stop()
	os.Exit(code)
}
