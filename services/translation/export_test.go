package translation

import "gorm.io/gorm"

// DB is the service's database, for tests that inject a failure into it.
func (svc *Service) DB() *gorm.DB { return svc.gdb }
