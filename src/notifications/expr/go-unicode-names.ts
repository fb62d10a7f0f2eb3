/**
 * The names Go's unicode package gives its tables (Unicode 15.0.0 in Go 1.21 to 1.26), which `\p{...}` in a Go
 * regexp looks up: printed from `unicode.Categories`, `unicode.Scripts` and `unicode.CategoryAliases` of each Go
 * release, and checked against regexp.Compile of Go 1.21, 1.24 and 1.26 by `npm run judge`.
 */
const names = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/** unicode.Categories of Go 1.21 to 1.24. */
export const GO_CATEGORIES = names(`
  C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs
`);

/** What Go 1.25 added to unicode.Categories. */
export const GO_1_25_CATEGORIES = names('Cn LC');

/** unicode.Scripts. */
export const GO_SCRIPTS = names(`
  Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki
  Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee
  Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan
  Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi
  Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited
  Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi
  Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani
  Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui
  Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari
  New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian
  Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong
  Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian
  Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le
  Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto Ugaritic Vai
  Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square
`);

/** unicode.CategoryAliases (Go 1.25 and later). */
export const GO_CATEGORY_ALIASES = names(`
  Cased_Letter Close_Punctuation Combining_Mark Connector_Punctuation Control Currency_Symbol Dash_Punctuation
  Decimal_Number Enclosing_Mark Final_Punctuation Format Initial_Punctuation Letter Letter_Number Line_Separator
  Lowercase_Letter Mark Math_Symbol Modifier_Letter Modifier_Symbol Nonspacing_Mark Number Open_Punctuation Other
  Other_Letter Other_Number Other_Punctuation Other_Symbol Paragraph_Separator Private_Use Punctuation Separator
  Space_Separator Spacing_Mark Surrogate Symbol Titlecase_Letter Unassigned Uppercase_Letter cntrl digit punct
`);
