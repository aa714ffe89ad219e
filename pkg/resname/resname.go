// Package resname formats and parses the resource names (AIP-122) the
// services put beside ids and slugs, and reconciles a Get request that
// names a resource both ways:
//
//	projects/{project}
//	projects/{project}/components/{component}
//	projects/{project}/components/{component}/translations/{language}
//	units/{id}, categories/{id}, changes/{id}
//
// Resources the REST API addresses by id alone (units, categories, change
// records) are named by id; the others by their slugs and language code.
// A component's name leaves its category out: slugs are unique in a
// project, and a name should not change when the component moves.
package resname

import (
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
)

// Field is the request field that carries a resource name.
const Field = "name"

// Project is the name of a project.
func Project(slug string) string { return "projects/" + slug }

// Component is the name of a component of a project.
func Component(project, component string) string {
	return Project(project) + "/components/" + component
}

// Translation is the name of a component's translation into a language.
func Translation(project, component, language string) string {
	return Component(project, component) + "/translations/" + language
}

// Unit is the name of a unit.
func Unit(id int64) string { return idName("units", id) }

// Category is the name of a category.
func Category(id int64) string { return idName("categories", id) }

// Change is the name of a change record.
func Change(id int64) string { return idName("changes", id) }

func idName(collection string, id int64) string {
	return collection + "/" + strconv.FormatInt(id, 10)
}

// ParseProject is the project slug of a project name.
func ParseProject(name string) (string, error) {
	ids, err := parse(name, "projects")
	if err != nil {
		return "", err
	}
	return ids[0], nil
}

// ParseComponent is the project and component slugs of a component name.
func ParseComponent(name string) (project, component string, err error) {
	ids, err := parse(name, "projects", "components")
	if err != nil {
		return "", "", err
	}
	return ids[0], ids[1], nil
}

// ParseTranslation is the slugs and language code of a translation name.
func ParseTranslation(name string) (project, component, language string, err error) {
	ids, err := parse(name, "projects", "components", "translations")
	if err != nil {
		return "", "", "", err
	}
	return ids[0], ids[1], ids[2], nil
}

// ParseUnit is the id of a unit name.
func ParseUnit(name string) (int64, error) { return parseID(name, "units") }

// ParseCategory is the id of a category name.
func ParseCategory(name string) (int64, error) { return parseID(name, "categories") }

// ParseChange is the id of a change record name.
func ParseChange(name string) (int64, error) { return parseID(name, "changes") }

func parseID(name, collection string) (int64, error) {
	ids, err := parse(name, collection)
	if err != nil {
		return 0, err
	}
	id, perr := strconv.ParseInt(ids[0], 10, 64)
	if perr != nil || id <= 0 {
		return 0, malformed(name, collection+"/{id}")
	}
	return id, nil
}

// parse matches name against collection/{id} pairs and returns the ids.
func parse(name string, collections ...string) ([]string, error) {
	pattern := make([]string, 0, len(collections))
	for _, c := range collections {
		pattern = append(pattern, c+"/{"+strings.TrimSuffix(c, "s")+"}")
	}
	segs := strings.Split(name, "/")
	if len(segs) != 2*len(collections) {
		return nil, malformed(name, strings.Join(pattern, "/"))
	}
	ids := make([]string, len(collections))
	for i, c := range collections {
		if segs[2*i] != c || segs[2*i+1] == "" {
			return nil, malformed(name, strings.Join(pattern, "/"))
		}
		ids[i] = segs[2*i+1]
	}
	return ids, nil
}

func malformed(name, pattern string) error {
	return errs.Invalid(Field, "invalid", "name "+strconv.Quote(name)+" is not of the form "+pattern+".")
}

// Agree reconciles a value a Get request gives directly with the one its
// name gives: the one that is set, and InvalidArgument on "name" when both
// are set and differ. field is the direct field's name, for the message.
func Agree[T comparable](field string, direct, fromName T) (T, error) {
	var zero T
	if direct != zero && direct != fromName {
		return zero, errs.Invalid(Field, "mismatch", "name and "+field+" name different resources.")
	}
	return fromName, nil
}
