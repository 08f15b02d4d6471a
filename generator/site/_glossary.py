"""The jieba user dictionary for Chinese search, generated from our glossary.

Material's search plugin segments Chinese text with jieba at build time.
Without domain words jieba splits compounds such as 驱动分支 or 向前兼容
into single characters and a search for them finds noise.  The dictionary
holds the field's terms below plus every name the knowledge base uses:
component names from the catalog, family ids and image names.
"""

from __future__ import annotations

from lingjun.schema.kb import KnowledgeBase

__all__ = ["GLOSSARY_TERMS", "user_dictionary_words", "user_dictionary_text"]

#: Chinese terms of the field as this site writes them
GLOSSARY_TERMS: tuple[str, ...] = (
    "驱动", "驱动版本", "驱动分支", "最低驱动", "驱动要求", "驱动兼容性", "内核驱动",
    "已知问题", "解决方法", "规避方法", "使用建议", "快速开始", "主要特性", "问题修复",
    "向前兼容", "次版本兼容", "原生支持", "不支持", "必须升级", "停止维护",
    "数据中心", "数据中心GPU", "消费级", "计算能力",
    "镜像", "镜像标签", "镜像系列", "基础镜像", "公网镜像", "VPC镜像",
    "组件", "组件列表", "版本记录", "支持矩阵", "版本变更", "兼容性",
    "通信库", "重计算", "显存优化", "编译优化", "检查工具", "检查规则", "数据校验",
    "灵骏", "多租", "单租", "容器计算服务", "训练", "推理", "升级", "降级", "新增", "移除",
    "故障排查", "错误信息", "错误行", "错误特征", "共享内存", "处理方法", "可能原因",
)


def user_dictionary_words(kb: KnowledgeBase) -> list[str]:
    """Glossary terms plus KB names, de-duplicated and sorted (deterministic).

    Names containing whitespace are left out: jieba's dictionary format is
    one word per line followed by optional frequency and tag fields.
    """
    words: set[str] = set(GLOSSARY_TERMS)
    for component in kb.components.values():
        words.add(component.id)
        words.add(component.name)
        words.update(component.published_names)
    for family in kb.families.values():
        words.add(family.id)
        words.add(family.image_name)
    return sorted(w for w in words if w and not any(ch.isspace() for ch in w))


def user_dictionary_text(kb: KnowledgeBase) -> str:
    """The dictionary file's content: one word per line."""
    return "".join(f"{word}\n" for word in user_dictionary_words(kb))
