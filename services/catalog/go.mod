module github.com/tmsproject/tms/services/catalog

go 1.26.0

require (
	github.com/tmsproject/tms/pkg v0.0.0
	github.com/tmsproject/tms/proto/gen/go v0.0.0
)

require (
	github.com/jinzhu/inflection v1.0.0 // indirect
	github.com/jinzhu/now v1.1.5 // indirect
	golang.org/x/text v0.40.0 // indirect
	gorm.io/gorm v1.31.2 // indirect
)

replace (
	github.com/tmsproject/tms/pkg => ../../pkg
	github.com/tmsproject/tms/proto/gen/go => ../../proto/gen/go
)
