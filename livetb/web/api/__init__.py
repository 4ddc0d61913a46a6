"""web/api"""
