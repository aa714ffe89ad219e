package token

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
)

// UserPrefix starts every user token, as in the reference implementation.
const UserPrefix = "wlu_"

// randomLen is the number of random characters after the prefix.
const randomLen = 36

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// NewUser returns a fresh user token: "wlu_" and 36 alphanumerics drawn
// uniformly from crypto/rand (about 214 bits).
func NewUser() (string, error) {
	b := make([]byte, 0, len(UserPrefix)+randomLen)
	b = append(b, UserPrefix...)
	n := big.NewInt(int64(len(alphabet)))
	for range randomLen {
		i, err := rand.Int(rand.Reader, n)
		if err != nil {
			return "", err
		}
		b = append(b, alphabet[i.Int64()])
	}
	return string(b), nil
}

// Hash returns the stored form of a token: hex SHA-256.
func Hash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}
