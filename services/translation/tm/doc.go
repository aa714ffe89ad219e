// Package tm is the text side of the translation memory: the similarity
// of two strings as the reference scores memory matches (Similarity), the
// words its index looks candidates up by (KeyWords), and the TMX 1.4b
// files the memory is imported from and exported to (Reader, Writer).
// Storage lives in the store package; this one holds no state.
package tm
