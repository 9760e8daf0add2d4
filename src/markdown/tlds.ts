/**
 * Top-level domains that make a bare `name.tld` an autolink (with a scheme, any host links).
 * Zulip uses the whole IANA list minus TLDs that are common file extensions (java, md, mov, py,
 * zip), so `readme.md` and `views.py` stay text. We keep every country code (minus md and py)
 * and the generic TLDs seen in everyday links; a host under a rarer new gTLD still links when
 * written with http(s)://.
 */
const COUNTRY_CODES =
  "ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz " +
  "ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk " +
  "fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq " +
  "ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc me mg mh mk " +
  "ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl " +
  "pm pn pr ps pt pw qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc td " +
  "tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw";

const GENERIC =
  "com net org edu gov mil int arpa info biz name pro aero coop museum mobi asia tel travel jobs cat " +
  "post app dev page blog shop store online site tech website space cloud news live life world today " +
  "email link click xyz top club art design digital studio solutions systems network group company " +
  "agency media software tools codes guru ninja rocks social team chat zone wiki photo photos video " +
  "music games fun family community center city london nyc berlin paris tokyo amsterdam global academy " +
  "school university college education science health care help support services consulting finance " +
  "money bank capital fund tax law legal church ltd inc llc gmbh energy green eco build house homes " +
  "land farm garden restaurant cafe pizza bar beer wine coffee fashion style fit run golf football " +
  "movie film radio show events party wedding dating love lol fyi how new one win vip best cool gift " +
  "sale deals market trade exchange host hosting server domains works work careers report review " +
  "reviews express foundation ngo ong gay kim moe ink red blue pink black gold plus wtf";

export const TLDS: ReadonlySet<string> = new Set(`${COUNTRY_CODES} ${GENERIC}`.split(" "));
