package store

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// The service's copy of the catalog's language table: what the language
// codes of files resolve against (server.languages), so that an import
// asks the catalog nothing. The catalog owns the table; its outbox sends
// the whole table after each write to it.

// Languages is one revision of the language table, indexed; shared and
// read only.
type Languages struct {
	Revision int64
	byCode   map[string]*catalogv1.Language
	byLower  map[string]*catalogv1.Language // the lowest id of each code folded
	plurals  map[int64][]*catalogv1.Plural  // by language id, in id order
}

// Find is the stored language of code, as the catalog finds it: the code
// exactly, else the one equal to it ignoring case with the lowest id.
func (l *Languages) Find(code string) (*catalogv1.Language, bool) {
	if x, ok := l.byCode[code]; ok {
		return x, true
	}
	x, ok := l.byLower[strings.ToLower(code)]
	return x, ok
}

// Plurals are the language's plurals besides its default, in id order.
func (l *Languages) Plurals(languageID int64) []*catalogv1.Plural { return l.plurals[languageID] }

func indexLanguages(t *translationv1.LanguageTable) *Languages {
	l := &Languages{Revision: t.GetRevision(), byCode: map[string]*catalogv1.Language{},
		byLower: map[string]*catalogv1.Language{}, plurals: map[int64][]*catalogv1.Plural{}}
	ids := map[string]int64{}
	for _, x := range t.GetLanguages() { // by id: the first of a folded code wins
		l.byCode[x.GetCode()], ids[x.GetCode()] = x, x.GetId()
		if _, ok := l.byLower[strings.ToLower(x.GetCode())]; !ok {
			l.byLower[strings.ToLower(x.GetCode())] = x
		}
	}
	for _, p := range t.GetPlurals() {
		id := ids[p.GetLanguageCode()]
		l.plurals[id] = append(l.plurals[id], p)
	}
	return l
}

// catalogLanguages is the row of catalog_languages.
type catalogLanguages struct {
	ID       int64  `gorm:"column:id;primaryKey"`
	Revision int64  `gorm:"column:revision"`
	Payload  []byte `gorm:"column:payload"`
}

func (catalogLanguages) TableName() string { return "catalog_languages" }

// languageCache keeps the table last decoded, by revision: a read asks
// the database for the revision only.
type languageCache struct {
	mu   sync.Mutex
	last *Languages
}

// ApplyLanguages stores the language table unless the copy holds its
// revision or a newer one, and reports whether it did. Translations read
// with a plural the copy lacked (plural id 0) get the id the table now
// gives their rule.
func (s *Store) ApplyLanguages(ctx context.Context, t *translationv1.LanguageTable) (bool, error) {
	payload, err := proto.Marshal(t)
	if err != nil {
		return false, err
	}
	applied := false
	err = s.q(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Exec(`INSERT INTO catalog_languages (id, revision, payload) VALUES (1, ?, ?)
			ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, payload = excluded.payload
			WHERE catalog_languages.revision < excluded.revision`, t.GetRevision(), payload)
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		applied = true
		return fillPluralIDs(tx, indexLanguages(t))
	})
	return applied, err
}

// fillPluralIDs gives the translations whose plural the copy lacked when
// they were read (plural id 0) the id of their rule in l.
func fillPluralIDs(tx *gorm.DB, l *Languages) error {
	var rules []struct {
		LanguageCode  string
		PluralNumber  int32
		PluralFormula string
	}
	err := tx.Raw(`SELECT DISTINCT language_code, plural_number, plural_formula FROM translations WHERE plural_id = 0`).
		Scan(&rules).Error
	if err != nil {
		return err
	}
	for _, r := range rules {
		x, ok := l.Find(r.LanguageCode)
		if !ok {
			continue
		}
		id := int64(0)
		if x.GetPluralNumber() == r.PluralNumber && x.GetPluralFormula() == r.PluralFormula {
			id = x.GetPluralId()
		}
		for _, p := range l.Plurals(x.GetId()) {
			if id == 0 && p.GetNumber() == r.PluralNumber && p.GetFormula() == r.PluralFormula {
				id = p.GetId()
			}
		}
		if id == 0 {
			continue
		}
		err = tx.Exec(`UPDATE translations SET plural_id = ? WHERE plural_id = 0 AND language_code = ?
			AND plural_number = ? AND plural_formula = ?`, id, r.LanguageCode, r.PluralNumber, r.PluralFormula).Error
		if err != nil {
			return err
		}
	}
	return nil
}

// LanguageTable is the language table as the catalog last sent it (empty,
// revision 0, before the first).
func (s *Store) LanguageTable(ctx context.Context) (*Languages, error) {
	var revs []int64
	if err := s.q(ctx).Model(&catalogLanguages{}).Where("id = 1").Pluck("revision", &revs).Error; err != nil {
		return nil, err
	}
	if len(revs) == 0 {
		return indexLanguages(&translationv1.LanguageTable{}), nil
	}
	c := s.langs
	if c != nil {
		c.mu.Lock()
		last := c.last
		c.mu.Unlock()
		if last != nil && last.Revision == revs[0] {
			return last, nil
		}
	}
	var row catalogLanguages
	if err := s.q(ctx).Where("id = 1").Take(&row).Error; err != nil {
		return nil, err
	}
	t := &translationv1.LanguageTable{}
	if err := proto.Unmarshal(row.Payload, t); err != nil {
		return nil, fmt.Errorf("decode the language table: %w", err)
	}
	l := indexLanguages(t)
	if c != nil {
		c.mu.Lock()
		if c.last == nil || c.last.Revision < l.Revision {
			c.last = l
		}
		c.mu.Unlock()
	}
	return l, nil
}
