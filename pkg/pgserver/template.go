package pgserver

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// initdb dominates a cluster's start-up (about a second, far more on a
// busy machine), and every test binary starts its own cluster. The first
// freshly initialised data directory is therefore kept as a template, keyed
// by the initdb binary, and later clusters copy it, which takes a few
// milliseconds. The template is published by an atomic rename, so readers
// never see half of one.

// templatePath names the template for the initdb binary at initdb.
func templatePath(initdb string) (string, error) {
	resolved, err := filepath.EvalSymlinks(initdb)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("%s|%d|%d|%d", resolved, info.Size(), info.ModTime().UnixNano(), os.Geteuid())
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(socketBase(), "tmspgtmpl-"+hex.EncodeToString(sum[:8])), nil
}

// copyTemplate fills data from the template; an error means "run initdb".
func copyTemplate(initdb, data string) error {
	tmpl, err := templatePath(initdb)
	if err != nil {
		return err
	}
	if err := copyTree(tmpl, data); err != nil {
		_ = os.RemoveAll(data)
		return err
	}
	return nil
}

// publishTemplate saves a pristine data directory (before the server
// first starts) as the template, unless another process did already.
func publishTemplate(initdb, data string) {
	tmpl, err := templatePath(initdb)
	if err != nil {
		return
	}
	if _, statErr := os.Stat(tmpl); statErr == nil {
		return
	}
	tmp, err := os.MkdirTemp(filepath.Dir(tmpl), filepath.Base(tmpl)+".tmp")
	if err != nil {
		return
	}
	staging := filepath.Join(tmp, "data")
	if copyTree(data, staging) == nil {
		_ = os.Rename(staging, tmpl) // fails harmlessly when another won
	}
	_ = os.RemoveAll(tmp)
}

// copyTree copies a directory of regular files, keeping permissions
// (PostgreSQL insists on 0700 or 0750 for its data directory).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(target, info.Mode().Perm()); err != nil {
				return err
			}
			return os.Chmod(target, info.Mode().Perm()) // undo the umask
		case info.Mode().IsRegular():
			return copyFile(path, target, info.Mode().Perm())
		default:
			return errors.New("pgtest: unexpected file type in data directory: " + path)
		}
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // read only
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
