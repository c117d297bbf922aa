"""Sentences and names the demo site builds its articles from (written for this project)."""

from __future__ import annotations

ZH_PLACES = ("杭州", "成都", "西安", "武汉", "长沙", "昆明", "青岛", "厦门", "兰州", "南宁")
ZH_AUTHORS = ("王晓明", "李静", "张伟", "刘洋", "陈思远", "赵敏")

EN_PLACES = ("Leeds", "Bristol", "Cardiff", "Glasgow", "Dundee", "Norwich", "Exeter", "York", "Bath", "Derby")
EN_AUTHORS = ("Jane Porter", "Sam Okafor", "Lena Fischer", "Tom Reyes", "Priya Nair", "Owen Hughes")

# Sentence slots: each sentence is built from short parts drawn independently (newscorpus.demo.pages), so two
# demo articles share few runs of five characters or words: a near-duplicate detector must see different
# stories (a reprint test copies an article instead).
ZH_WHEN = ("今年三月以来", "上周", "近日", "本月初", "去年年底", "假期期间", "入冬以来", "连日来", "今年上半年",
           "前不久", "周二上午", "十月中旬", "从去年起", "本周", "日前")
ZH_ORG = ("交通局", "教育局", "民营企业", "志愿服务队", "农业农村局", "职业学院", "生态环境局", "街道办", "文化馆",
          "卫健委", "物流公司", "管委会", "气象台", "创业团队", "住建局", "港口集团", "人民医院", "体育局",
          "科研院所", "商务局")
ZH_DID = ("启动了", "完成了", "试点了", "发布了", "开展了", "推进了", "升级了", "举办了", "整治了", "规划了",
          "启用了", "组织了")
ZH_ADJ = ("智能", "绿色", "夜间", "基层", "跨境", "沿江", "老旧", "高校", "社区", "城际", "山区", "近海", "传统",
          "数字", "应急", "乡村", "低碳", "共享", "便民", "公共")
ZH_NOUN = ("公交", "湿地", "管网", "食堂", "古籍", "农田", "民宿", "刺绣", "医疗", "足球", "预警", "夜市", "充电",
           "物流", "养老", "教育", "文化", "水利", "电网", "出行", "图书", "菜场", "停车", "体育")
ZH_SUFFIX = ("改造工程", "试点项目", "提升行动", "服务体系", "建设计划", "补贴政策", "整治方案", "运营模式",
             "监测平台", "培训课程", "保障机制", "示范基地")
ZH_COUNT = ("目前已有", "截至上月底共有", "据初步统计约有", "全年预计将有", "第一批共有", "今年累计有", "周边已有",
            "全市已有", "试点地区已有", "各区县已有")
ZH_UNIT = ("个社区", "家企业", "所学校", "万户家庭", "个村庄", "名志愿者", "条线路", "处站点")
ZH_OUTCOME = ("参与其中", "从中受益", "完成验收", "提交申请", "签订协议", "接入系统", "纳入名单", "获得补助",
              "开展自查", "反馈意见")
ZH_DETAIL = ("据工作人员介绍，", "记者在现场看到，", "一位受访者说，", "数据显示，", "有关负责人透露，",
             "值得一提的是，", "与此同时，", "据了解，", "业内人士分析，", "对此，")

EN_WHEN = ("Since March", "Last week", "This month", "Late last year", "Over the holiday weekend", "Since the autumn",
           "For several days", "In the first half of the year", "On Tuesday morning", "In mid-October",
           "Earlier this year", "This week", "Recently")
EN_ORG = ("transport office", "education board", "engineering firm", "volunteer group", "farming agency",
          "technical college", "environment department", "neighbourhood council", "arts centre", "health trust",
          "logistics company", "science park", "weather service", "start-up team", "housing department",
          "port operator", "county hospital", "sports council", "research institute", "trade office")
EN_DID = ("launched", "completed", "piloted", "published", "organised", "sped up", "overhauled", "opened",
          "redesigned", "funded", "reviewed", "expanded")
EN_ADJ = ("smart", "green", "night-time", "rural", "cross-border", "riverside", "ageing", "campus", "community",
          "intercity", "mountain", "coastal", "traditional", "digital", "emergency", "village", "low-carbon",
          "shared", "local", "public")
EN_NOUN = ("bus", "wetland", "water-main", "canteen", "archive", "farmland", "guesthouse", "embroidery", "clinic",
           "football", "flood-warning", "market", "charging", "delivery", "care-home", "school", "library",
           "irrigation", "power-grid", "cycling", "book", "grocery", "parking", "swimming")
EN_SUFFIX = ("renovation works", "pilot scheme", "upgrade drive", "service network", "building plan",
             "subsidy rules", "clean-up plan", "operating model", "monitoring platform", "training course",
             "support fund", "showcase site")
EN_COUNT = ("So far", "By the end of last month", "According to early figures", "This year", "In the first round",
            "Across the city", "In the pilot districts", "Nearby")
EN_UNIT = ("neighbourhoods", "companies", "schools", "thousand households", "villages", "volunteers", "routes",
           "sites")
EN_OUTCOME = ("have joined in", "have benefited", "have passed inspection", "have applied", "have signed up",
              "have been connected", "have been listed", "have received grants", "have begun self-checks",
              "have sent feedback")
EN_DETAIL = ("According to staff,", "At the scene,", "One resident said that", "Figures show that",
             "An official said that", "Notably,", "Meanwhile,", "Reportedly,", "Analysts noted that", "In response,")
