"""web/feed"""
