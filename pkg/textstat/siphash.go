package textstat

import (
	"encoding/binary"
	"math/bits"
)

// SipHash24 returns the 64-bit SipHash-2-4 of msg under a 128-bit key
// (Aumasson & Bernstein, "SipHash: a fast short-input PRF", 2012).
func SipHash24(key [16]byte, msg []byte) uint64 {
	k0 := binary.LittleEndian.Uint64(key[0:8])
	k1 := binary.LittleEndian.Uint64(key[8:16])
	s := sipState{
		v0: k0 ^ 0x736f6d6570736575,
		v1: k1 ^ 0x646f72616e646f6d,
		v2: k0 ^ 0x6c7967656e657261,
		v3: k1 ^ 0x7465646279746573,
	}
	length := len(msg)
	for len(msg) >= 8 {
		s.compress(binary.LittleEndian.Uint64(msg))
		msg = msg[8:]
	}
	// Last block: remaining bytes, the length in the top byte.
	var last [8]byte
	copy(last[:], msg)
	last[7] = byte(length) //nolint:gosec // G115: SipHash takes the length modulo 256
	s.compress(binary.LittleEndian.Uint64(last[:]))

	s.v2 ^= 0xff
	for range 4 {
		s.round()
	}
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3
}

type sipState struct{ v0, v1, v2, v3 uint64 }

// compress absorbs one 64-bit word with two SipRounds (the "2" of 2-4).
func (s *sipState) compress(m uint64) {
	s.v3 ^= m
	s.round()
	s.round()
	s.v0 ^= m
}

func (s *sipState) round() {
	s.v0 += s.v1
	s.v1 = bits.RotateLeft64(s.v1, 13)
	s.v1 ^= s.v0
	s.v0 = bits.RotateLeft64(s.v0, 32)
	s.v2 += s.v3
	s.v3 = bits.RotateLeft64(s.v3, 16)
	s.v3 ^= s.v2
	s.v0 += s.v3
	s.v3 = bits.RotateLeft64(s.v3, 21)
	s.v3 ^= s.v0
	s.v2 += s.v1
	s.v1 = bits.RotateLeft64(s.v1, 17)
	s.v1 ^= s.v2
	s.v2 = bits.RotateLeft64(s.v2, 32)
}
