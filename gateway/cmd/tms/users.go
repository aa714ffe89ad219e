package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

const usersSynopsis = `
Usage: tms users <create|list|token|deactivate> [arguments]

Manages accounts on the configured databases (the same as tms serve uses);
a running service sees the change within seconds.

  tms users create NAME [--full-name=...] [--email=...] [--superuser]
  tms users list
  tms users token NAME        issue a new API token (the former stops working)
  tms users deactivate NAME   the account keeps its history, its token stops working`

// usersAction is one word after `tms users`.
type usersAction func(ctx context.Context, acc notificationv1.NotificationServiceServer, args []string, stdout io.Writer) error

func users(args []string, stdout, stderr io.Writer) int {
	cfg, err := stack.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "tms users:", err)
		return exitUsage
	}
	fs := newFlags("users", usersSynopsis, stdout, stderr)
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "data directory of the SQLite databases (TMS_DATA_DIR)")
	if code, done := fs.parse(args); done {
		return code
	}
	actions := map[string]struct {
		args int // the words after the action, flags aside
		run  usersAction
	}{"create": {1, userCreate}, "list": {0, userList}, "token": {1, userToken}, "deactivate": {1, userDeactivate}}
	if fs.NArg() == 0 {
		fs.printHelp(stderr)
		return exitUsage
	}
	act, ok := actions[fs.Arg(0)]
	if !ok {
		fmt.Fprintf(stderr, "tms users: unknown action %q (want create, list, token or deactivate)\n", fs.Arg(0))
		return exitUsage
	}
	rest := fs.Args()[1:]
	if fs.Arg(0) != "create" && len(rest) != act.args {
		fmt.Fprintf(stderr, "tms users %s: want %d argument(s), got %d\n", fs.Arg(0), act.args, len(rest))
		return exitUsage
	}
	ctx := context.Background()
	acc, closeAcc, err := stack.Accounts(ctx, cfg, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		fmt.Fprintln(stderr, "tms users:", err)
		return exitFailure
	}
	defer func() {
		if cerr := closeAcc(); cerr != nil {
			fmt.Fprintln(stderr, "tms users:", cerr)
		}
	}()
	if err := act.run(ctx, acc, rest, stdout); err != nil {
		fmt.Fprintf(stderr, "tms users %s: %s\n", fs.Arg(0), describe(err))
		if _, usage := errors.AsType[usageError](err); usage {
			return exitUsage
		}
		return exitFailure
	}
	return exitOK
}

// usageError is a command line the action cannot run.
type usageError string

func (e usageError) Error() string { return string(e) }

// describe is an error as an operator reads it: the message, and the field
// problems of a refused request.
func describe(err error) string {
	e := errs.FromStatus(err)
	if e.Kind == errs.Internal || e.Message == "" {
		return err.Error()
	}
	msg := e.Message
	for _, f := range e.Fields {
		msg += fmt.Sprintf("\n  %s: %s", f.Field, f.Description)
	}
	return msg
}

func userCreate(ctx context.Context, acc notificationv1.NotificationServiceServer, args []string, stdout io.Writer) error {
	fs := newFlags("users create", "Usage: tms users create NAME [--full-name=...] [--email=...] [--superuser]", stdout, io.Discard)
	fullName := fs.String("full-name", "", "the name shown for the user")
	email := fs.String("email", "", "e-mail address")
	super := fs.Bool("superuser", false, "give the account every right")
	// The name may come before or after the flags.
	var name string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if name == "" && fs.NArg() == 1 {
		name = fs.Arg(0)
	} else if fs.NArg() > 0 || name == "" {
		return usageError("want one NAME")
	}
	resp, err := acc.CreateUser(ctx, &notificationv1.CreateUserRequest{User: &notificationv1.User{
		Username: name, FullName: *fullName, Email: *email, IsSuperuser: *super, IsActive: true}})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "created %s\n", resp.GetUser().GetUsername())
	return err
}

func userList(ctx context.Context, acc notificationv1.NotificationServiceServer, _ []string, stdout io.Writer) error {
	resp, err := acc.ListUsers(ctx, &notificationv1.ListUsersRequest{})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	if _, err = fmt.Fprintln(tw, "USERNAME\tFULL NAME\tEMAIL\tSUPERUSER\tACTIVE"); err != nil {
		return err
	}
	for _, u := range resp.GetUsers() {
		if _, err = fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t%v\n", u.GetUsername(), u.GetFullName(), u.GetEmail(), u.GetIsSuperuser(), u.GetIsActive()); err != nil {
			return err
		}
	}
	return tw.Flush()
}

func userToken(ctx context.Context, acc notificationv1.NotificationServiceServer, args []string, stdout io.Writer) error {
	resp, err := acc.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: args[0]})
	if err != nil {
		return err
	}
	// The token is shown once: a failed write must not pass for success.
	_, err = fmt.Fprintln(stdout, resp.GetToken())
	return err
}

func userDeactivate(ctx context.Context, acc notificationv1.NotificationServiceServer, args []string, stdout io.Writer) error {
	resp, err := acc.SetUserActive(ctx, &notificationv1.SetUserActiveRequest{Username: args[0], Active: false})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "deactivated %s\n", resp.GetUser().GetUsername())
	return err
}
