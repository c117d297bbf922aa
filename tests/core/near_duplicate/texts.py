"""Articles written for the near-duplicate tests (Chinese and English), with reprint and follow-up variants."""

from __future__ import annotations

ZH_TITLE = "江城市新建跨江大桥正式通车"
ZH_PARAGRAPHS = [
    "本报讯 江城市新建的跨江大桥于昨日上午正式通车，大桥全长三千二百米，双向六车道，设计时速八十公里。",
    "据市交通局介绍，跨江大桥自开工以来历时四年建设，总投资约四十五亿元，是江城市迄今规模最大的桥梁工程。",
    "大桥通车后，从江北新区到老城中心的车程将由原来的五十分钟缩短到十五分钟左右，沿江两岸的交通压力明显缓解。",
    "施工单位负责人表示，大桥主塔采用了新型抗震设计，桥面铺装使用了降噪材料，夜间还将开启景观照明。",
    "不少市民一早就来到桥头，骑车或步行体验新桥。退休教师李女士说，过去去江北看望女儿要换乘两次公交，现在方便多了。",
    "市交通局同时提醒，通车初期桥上将实行限速管理，货车须按指定时段通行，相关公交线路也将于下月起陆续调整。",
]
ZH_FOLLOWUP_TITLE = "江城市跨江大桥通车后最新进展"
ZH_FOLLOWUP_PARAGRAPHS = [
    ZH_PARAGRAPHS[0],
    "记者调查发现，周边小区的房屋挂牌价格在一周内普遍上涨，部分中介门店的咨询量翻了一番。",
    "与此同时，江北新区的三所中学宣布扩大招生规模，教育部门正在研究新增学位的分配方案。",
    "环保志愿者则关注大桥下游湿地的鸟类栖息情况，他们计划每月开展一次观测并公布记录。",
    "有业内人士分析，城市格局的变化往往需要数年才能显现，眼下的热度未必能够持续。",
]

EN_TITLE = "Riverside town opens its first public library in forty years"
EN_PARAGRAPHS = [
    "The riverside town of Millbrook opened its first new public library in forty years on Saturday, drawing a crowd "
    "of several hundred residents who queued along the main street before the doors opened at nine.",
    "The two-storey building, which cost 6.2 million dollars, was paid for by a mix of county bonds and private "
    "donations, including a large gift from a retired schoolteacher who grew up in the town.",
    "Inside, the library holds about 40,000 books, a children's reading room with a small stage, twelve public "
    "computers and a workshop where residents can borrow tools and learn basic repairs.",
    "Head librarian Ruth Okafor said the old building had been too small and too damp for years, and that the new "
    "library was designed to be a meeting place as much as a place to borrow books.",
    "Local schools plan weekly visits, and a volunteer group will run evening classes in reading and writing for "
    "adults who left school early, starting next month.",
    "The town council said opening hours will be extended on weekends during the summer, and that a mobile library "
    "van will serve the outlying farms twice a week from the autumn.",
]
EN_FOLLOWUP_TITLE = "Millbrook public library update: questions remain"
EN_FOLLOWUP_PARAGRAPHS = [
    EN_PARAGRAPHS[0],
    "Parking has become the main complaint since then, with drivers circling the block for twenty minutes on busy "
    "mornings and shop owners worried that customers will stay away.",
    "The county transport office has promised a study of the junction near the bridge, where two minor collisions "
    "were reported in the first week, but gave no date for its findings.",
    "Meanwhile a row over the cafe lease has divided the council, after the contract went to an outside chain "
    "rather than the family bakery that had run the old kiosk for a decade.",
    "Officials said a public meeting on the issues will be held at the town hall before the end of the month.",
]


def zh_reprint() -> tuple[str, str]:
    """Portal header and footer, a dropped paragraph, a title prefix: the same story."""
    body = "\n".join(["来源：江城日报  2024-05-09 10:23"] + ZH_PARAGRAPHS[:3] + ZH_PARAGRAPHS[4:] + ["责任编辑：王五"])
    return "快讯：" + ZH_TITLE, body


def en_reprint() -> tuple[str, str]:
    body = "\n\n".join(["By Jane Roe, County Herald"] + EN_PARAGRAPHS[:2] + EN_PARAGRAPHS[3:] + ["Editing by Sam Poe"])
    return EN_TITLE + " - County Herald", body


# A weekly series of our invented newsroom: each issue shares the series' template (intro and closing lines, most
# of the text) and title words, but tells another week's stories.
EN_QUIZ_INTRO = [
    "How closely did you follow the news this week? Take the Millbrook Herald's weekly quiz and find out.",
    "Each question is about a story we covered in the past seven days, and the answers are at the bottom of the page.",
    "Five correct answers earn you a place on our honour roll, which we print in the Saturday paper.",
]
EN_QUIZ_OUTRO = [
    "Answers: 1-B, 2-A, 3-D, 4-C, 5-A. Share your score with us, and come back next Friday for a new quiz.",
    "The news quiz is published every Friday morning by the Herald's weekend desk and is free for every reader.",
]
EN_QUIZ_WEEKS = [
    ["Which street did the council close for repairs after the March storm damaged the old stone bridge?",
     "How many goats escaped from the county fair before volunteers herded them back across the parking lot?"],
    ["What did the bakery on Elm Road win at the regional pie contest held in the old exhibition hall?",
     "Which school team reached the state robotics final for the first time since the gym was rebuilt?"],
    ["Who was named the new harbour master after the long dispute over the ferry timetable was settled?",
     "What colour will the renovated clock tower be painted once scaffolding comes down in the autumn?"],
]
ZH_QUIZ_INTRO = [
    "这一周的新闻你都关注了吗？来做做江城日报的每周新闻测验，看看自己能答对几道。",
    "每道题都来自过去七天本报报道过的新闻，答案附在文末，答对五题即可登上周六见报的荣誉榜。",
]
ZH_QUIZ_OUTRO = [
    "答案：1.B 2.A 3.D 4.C 5.A。欢迎在评论区晒出你的得分，下周五我们再见。",
    "每周新闻测验由本报周末编辑部每周五早上发布，所有读者均可免费参与。",
]
ZH_QUIZ_WEEKS = [
    ["本周哪条道路因暴雨冲毁老石桥而封闭维修？", "县集市上走失的山羊最后被志愿者赶回了哪里？"],
    ["城南面包房在地区馅饼大赛上获得了什么奖项？", "哪所中学的机器人队首次闯入了省级决赛？"],
    ["渡轮时刻表争议平息后，谁被任命为新的港务长？", "钟楼翻修完成后将被漆成什么颜色？"],
]


def en_quiz(week: int) -> tuple[str, str]:
    questions = [f"{n}. {q}" for n, q in enumerate(EN_QUIZ_WEEKS[week], 1)]
    return f"Weekly news quiz, week {week + 10}: bridge, fair and more", "\n".join(
        EN_QUIZ_INTRO + questions + EN_QUIZ_OUTRO)


def zh_quiz(week: int) -> tuple[str, str]:
    questions = [f"{n}. {q}" for n, q in enumerate(ZH_QUIZ_WEEKS[week], 1)]
    return f"每周新闻测验（第{week + 10}期）：石桥、集市", "\n".join(ZH_QUIZ_INTRO + questions + ZH_QUIZ_OUTRO)
