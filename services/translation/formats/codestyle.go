package formats

import "strings"

// Language code styles name how a language code is written in the file
// name of a new translation (a component's language_code_style, Weblate's
// get_language_code): "posix" pt_BR, "bcp" pt-BR, "android" pt-rBR, … An
// empty style is the format's own (DefaultCodeStyle).

// formatCodeStyles are the formats whose own style is not "posix", as in
// Weblate's format classes.
var formatCodeStyles = map[string]string{
	"xliff": "bcp", "xliff2": "bcp", "xliff2-placeables": "bcp",
	"strings": "bcp", "strings-utf8": "bcp",
	"properties": "linux", "properties-utf8": "linux", "properties-utf16": "linux",
	"aresource": "android",
}

// DefaultCodeStyle is the language code style of a format's file names.
func DefaultCodeStyle(formatID string) string {
	if s, ok := formatCodeStyles[formatID]; ok {
		return s
	}
	return "posix"
}

// FileLanguageCode writes code (a language code as the service stores it,
// e.g. pt_BR, zh_Hans, sr_Latn, de@formal) in style, or in the format's
// own style when style is empty. An unknown style is the format's own.
func FileLanguageCode(formatID, style, code string) string {
	if style == "" {
		style = DefaultCodeStyle(formatID)
	}
	posix := strings.ReplaceAll(code, "-", "_")
	switch style {
	case "posix_lowercase":
		return strings.ToLower(posix)
	case "bcp":
		return bcp(posix)
	case "bcp_lower":
		return strings.ToLower(bcp(posix))
	case "posix_long":
		return long(posix)
	case "posix_long_lowercase":
		return strings.ToLower(long(posix))
	case "bcp_long":
		return bcp(long(posix))
	case "bcp_long_lower":
		return strings.ToLower(bcp(long(posix)))
	case "linux":
		return linux(posix)
	case "linux_lowercase":
		return strings.ToLower(linux(posix))
	case "android":
		return android(posix)
	case "bcp_legacy":
		return bcp(legacy(posix))
	case "appstore":
		return bcp(fromTable(appstoreCodes, posix))
	case "googleplay":
		return bcp(fromTable(googlePlayCodes, posix))
	}
	if style != "posix" {
		return FileLanguageCode(formatID, DefaultCodeStyle(formatID), code)
	}
	return posix
}

func bcp(code string) string { return strings.ReplaceAll(code, "_", "-") }

func fromTable(table map[string]string, code string) string {
	if c, ok := table[code]; ok {
		return c
	}
	return code
}

// long adds the default country of a language without one (de: de_DE).
func long(code string) string {
	if c, ok := defaultCountry[code]; ok {
		return code + "_" + strings.ToUpper(c)
	}
	return code
}

// legacy writes Chinese scripts as the countries older systems use.
func legacy(code string) string { return fromTable(legacyCodes, code) }

// linux writes scripts as glibc's @modifiers, after legacy.
func linux(code string) string {
	if c, ok := linuxCodes[code]; ok {
		return c
	}
	return legacy(code)
}

// android writes resource qualifiers: pt-rBR, b+sr+Latn for a script, and
// the old codes Android keeps for he, id and yi.
func android(code string) string {
	if c, ok := androidCodes[code]; ok {
		return c
	}
	code = legacy(code)
	lang, rest, found := strings.Cut(code, "_")
	switch {
	case !found:
		return code
	case len(rest) > 2:
		return "b+" + strings.ReplaceAll(code, "_", "+")
	}
	return lang + "-r" + rest
}

var (
	androidCodes = map[string]string{"he": "iw", "id": "in", "yi": "ji"}
	legacyCodes  = map[string]string{"zh_Hans": "zh_CN", "zh_Hant": "zh_TW", "zh_Hans_SG": "zh_SG", "zh_Hant_HK": "zh_HK"}
	linuxCodes   = map[string]string{"sr_Latn": "sr", "sr_Cyrl": "sr@cyrillic", "ar_Latn": "ar@latin", "kk_Latn": "kk@latin",
		"be_Latn": "be@latin", "uz_Cyrl": "uz@cyrillic", "uz_Latn": "uz@latin"}
	appstoreCodes   = map[string]string{"ar": "ar-SA", "de": "de-DE", "fr": "fr-FR", "nl": "nl-NL", "pt": "pt-PT"}
	googlePlayCodes = map[string]string{"hy": "hy-AM", "az": "az-AZ", "eu": "eu-ES", "my": "my-MM", "zh_Hant_HK": "zh-HK",
		"zh_Hans": "zh-CN", "zh_Hant": "zh-TW", "cs": "cs-CZ", "da": "da-DK", "nl": "nl-NL", "en": "en-SG", "fi": "fi-FI",
		"fr": "fr-FR", "gl": "gl-ES", "ka": "ka-GE", "de": "de-DE", "el": "el-GR", "he": "iw-IL", "hi": "hi-IN", "hu": "hu-HU",
		"is": "is-IS", "it": "it-IT", "ja": "ja-JP", "kn": "kn-IN", "km": "km-KH", "ko": "ko-KR", "ky": "ky-KG", "lo": "lo-LA",
		"mk": "mk-MK", "ms": "ms-MY", "ml": "ml-IN", "mr": "mr-IN", "mn": "mn-MN", "ne": "ne-NP", "nb_NO": "no-NO", "fa": "fa-IR",
		"pl": "pl-PL", "ru": "ru-RU", "si": "si-LK", "es": "es-ES", "sv": "sv-SE", "ta": "ta-IN", "te": "te-IN", "tr": "tr-TR"}
)

// defaultCountry is the country a language is written with by the long
// styles (language-data's default_countries.csv; Weblate's EXPAND_LANGS,
// which garbles the two three-letter entries, ast and gug, that are kept
// whole here).
var defaultCountry = func() map[string]string {
	out := map[string]string{}
	for _, c := range strings.Fields(`af_za am_et ar_aa as_in az_az be_by bg_bg bn_bd bo_bt br_fr bs_ba ca_es cs_cz cy_gb da_dk
		de_de ee_ee el_gr en_us eo_xx es_es et_ee eu_es fa_ir fi_fi fo_fo fr_fr ga_ie gd_gb gl_es gu_in gv_gb he_il hi_in hr_hr
		hu_hu hy_am id_id is_is it_it iu_ca ja_jp ka_ge kk_kz kl_gl km_kh kn_in ko_kr ks_in kw_gb ky_kg lb_lu lo_la lt_lt lv_lv
		mi_nz mk_mk ml_in mn_mn mr_in ms_my mt_mt my_mm ne_np nl_nl nn_no no_no nr_za ny_no oc_fr or_in pa_in pd_us ph_ph pl_pl
		pp_an pt_pt ro_ro ru_ru rw_rw sa_in sd_in si_lk sk_sk sl_si sq_al sr_rs ss_za st_za sv_se ta_in te_in tg_tj th_th tk_tm
		tl_ph tn_za tr_tr ts_za tt_ru uk_ua ur_pk uz_uz ve_za vi_vn wa_be xh_za yi_us zu_za ast_es gug_py`) {
		lang, country, _ := strings.Cut(c, "_")
		out[lang] = country
	}
	return out
}()
