package main

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// remoteFile is an io.ReaderAt over HTTP range requests, reading at least readAhead bytes at a
// time and keeping the last block read.
type remoteFile struct {
	client *http.Client
	url    string
	size   int64
	// buf holds the bytes from off on of the last read.
	off int64
	buf []byte
}

// openRemote returns a remoteFile for u, its size from a HEAD request's Content-Length.
func openRemote(client *http.Client, u string) (*remoteFile, error) {
	resp, err := client.Head(u)
	if err != nil {
		return nil, fmt.Errorf("HEAD %s: %w", u, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HEAD %s: %s", u, resp.Status)
	}
	if resp.ContentLength < 0 {
		return nil, fmt.Errorf("HEAD %s: no Content-Length", u)
	}
	// Read from where the redirects, if any, led.
	return &remoteFile{client: client, url: resp.Request.URL.String(), size: resp.ContentLength}, nil
}

// ReadAt implements io.ReaderAt.
func (r *remoteFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s at %d: negative offset", r.url, off)
	}
	if off >= r.size {
		return 0, io.EOF
	}
	want := int64(len(p))
	if off+want > r.size {
		want = r.size - off
	}
	if off < r.off || off+want > r.off+int64(len(r.buf)) {
		n := max(want, readAhead)
		n = min(n, r.size-off)
		buf, err := r.fetch(off, n)
		if err != nil {
			return 0, err
		}
		r.off, r.buf = off, buf
	}
	copied := copy(p, r.buf[off-r.off:off-r.off+want])
	if copied < len(p) {
		return copied, io.EOF
	}
	return copied, nil
}

// fetch gets the n bytes at off with one range request.
func (r *remoteFile) fetch(off, n int64) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, r.url, nil)
	if err != nil {
		return nil, fmt.Errorf("range request for %s: %w", r.url, err)
	}
	rng := "bytes=" + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(off+n-1, 10)
	req.Header.Set("Range", rng)
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s %s: %w", r.url, rng, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		// A 200 would be the whole file: do not read it.
		return nil, fmt.Errorf("GET %s %s: %s, want 206 Partial Content", r.url, rng, resp.Status)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return nil, fmt.Errorf("GET %s %s: reading body: %w", r.url, rng, err)
	}
	return buf, nil
}
