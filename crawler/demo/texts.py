"""Sentences and names the demo site builds its articles from (written for this project)."""

from __future__ import annotations

ZH_TOPICS = (
    "城市公共交通", "乡村教育", "新能源汽车", "长江生态保护", "冬季供暖", "老旧小区改造", "青年就业",
    "跨境电商", "社区养老", "博物馆数字化", "粮食生产", "海洋渔业", "高铁网络", "山区旅游", "科技创新",
    "非遗传承", "医疗服务", "垃圾分类", "体育赛事", "气象预警",
)
ZH_SENTENCES = (
    "记者从有关部门了解到，{topic}相关工作今年取得了明显进展，多项指标好于预期。",
    "据介绍，{topic}项目覆盖全市十二个区县，惠及群众超过三十万人。",
    "专家表示，推进{topic}需要政府、企业和社会各方形成合力，久久为功。",
    "在{place}，当地居民对{topic}的变化感受最为直接，不少人说生活更方便了。",
    "一位参与{topic}工作的负责人告诉记者：“我们既要把好事办好，也要把实事办实。”",
    "数据显示，前三季度与{topic}有关的投资同比增长百分之十二点五。",
    "下一步，{place}将继续完善配套政策，推动{topic}向纵深发展。",
    "业内人士认为，{topic}的关键在于机制创新，要让更多市场主体参与进来。",
    "今年以来，{place}围绕{topic}出台了一系列措施，取得了阶段性成果。",
    "为了解决群众反映强烈的问题，工作人员深入一线，逐户走访，收集意见建议。",
    "与此同时，相关部门加强监督检查，确保各项措施落到实处，不搞形式主义。",
    "不少受访者表示，希望{topic}能够持续推进，让更多家庭从中受益。",
    "据悉，{place}还计划在明年举办专题论坛，邀请国内外专家共同探讨{topic}的未来。",
    "从试点到推广，{topic}走过了一条不平凡的道路，也积累了宝贵经验。",
    "值得注意的是，{topic}在推进过程中也遇到了资金、人才和技术等方面的挑战。",
    "对此，有关方面表示将加大支持力度，统筹各类资源，帮助基层解决实际困难。",
)
ZH_PLACES = ("杭州", "成都", "西安", "武汉", "长沙", "昆明", "青岛", "厦门", "兰州", "南宁")
ZH_AUTHORS = ("王晓明", "李静", "张伟", "刘洋", "陈思远", "赵敏")

EN_TOPICS = (
    "city bus network", "rural schools", "electric vehicles", "river clean-up", "winter heating",
    "housing renovation", "youth employment", "online retail", "elderly care", "museum archives",
    "grain harvest", "coastal fisheries", "high-speed rail", "mountain tourism", "research funding",
    "folk crafts", "hospital services", "recycling rules", "marathon season", "storm warnings",
)
EN_SENTENCES = (
    "Officials said on Tuesday that the {topic} programme had made clear progress this year.",
    "The plan covers twelve districts in {place} and reaches more than 300,000 residents, they said.",
    "Experts say that improving the {topic} will take steady effort from government, business and citizens.",
    "In {place}, residents say they have noticed the changes to the {topic} in their daily lives.",
    "\"We want to get the details right, not just the headlines,\" said one official in charge of the work.",
    "Figures released this month show that investment linked to the {topic} rose 12.5 percent.",
    "Next year, {place} plans to extend the scheme and publish a review of what has worked so far.",
    "Analysts argue that the key to the {topic} is better coordination between local agencies.",
    "Since January, {place} has introduced a series of measures aimed at the {topic}.",
    "Staff visited households door to door to collect complaints and suggestions from the public.",
    "Inspectors will check that the measures are carried out as promised, the council said.",
    "Several people interviewed said they hoped the {topic} would continue to improve.",
    "A forum on the future of the {topic} is planned for the spring, with speakers from abroad.",
    "The project began as a small pilot and has since grown into a city-wide effort.",
    "Challenges remain, including funding gaps, a shortage of skilled staff and ageing equipment.",
    "The regional government said it would increase support and help districts solve practical problems.",
)
EN_PLACES = ("Leeds", "Bristol", "Cardiff", "Glasgow", "Dundee", "Norwich", "Exeter", "York", "Bath", "Derby")
EN_AUTHORS = ("Jane Porter", "Sam Okafor", "Lena Fischer", "Tom Reyes", "Priya Nair", "Owen Hughes")
