"""web/pages"""
