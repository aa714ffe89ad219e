package pgserver

import (
	"context"
	"fmt"
	"regexp"
	"time"
)

// Server is a running private cluster.
type Server struct{ c *cluster }

// Start boots a cluster with the PostgreSQL binaries on PATH; ErrNoBinaries
// when there are none.
func Start() (*Server, error) {
	c, err := start()
	if err != nil {
		return nil, err
	}
	return &Server{c: c}, nil
}

var databaseName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// CreateDatabase creates a database and returns its URL.
func (s *Server) CreateDatabase(name string) (string, error) {
	if !databaseName.MatchString(name) {
		return "", fmt.Errorf("pgserver: database name %q", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.c.admin.ExecContext(ctx, `CREATE DATABASE `+name+s.c.createSuffix); err != nil {
		return "", fmt.Errorf("pgserver: create database %s: %w", name, err)
	}
	return s.c.url(name), nil
}

// Stop shuts the cluster down and removes its files.
func (s *Server) Stop() { s.c.stop() }

// DropDatabase drops a database, ending its connections.
func (s *Server) DropDatabase(name string) error {
	if !databaseName.MatchString(name) {
		return fmt.Errorf("pgserver: database name %q", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := s.c.admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	return err
}

// Dir is the cluster's directory (its socket and data).
func (s *Server) Dir() string { return s.c.dir }
